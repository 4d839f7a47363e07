import type { ReactNode } from 'react';

interface ChipProps {
  children: ReactNode;
  selected?: boolean;
  onClick?: () => void;
}

/** A category chip: a toggle button when clickable, a plain tag otherwise. */
export function Chip({ children, selected = false, onClick }: ChipProps) {
  if (!onClick) return <span className="chip">{children}</span>;
  return (
    <button type="button" className="chip chip-button" aria-pressed={selected} onClick={onClick}>
      {children}
    </button>
  );
}
