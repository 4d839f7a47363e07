import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';

/**
 * Spec §2: a link is current when the location starts with its target, or equals it for links marked
 * exact. React Router's NavLink matches by path segment instead, so the rule is written out here.
 */
export function isCurrentLink(pathname: string, to: string, exact = false): boolean {
  return exact ? pathname === to : pathname.startsWith(to);
}

interface NavItemProps {
  to: string;
  exact?: boolean;
  className?: string;
  label?: string;
  children: ReactNode;
}

export function NavItem({ to, exact, className = 'nav-link', label, children }: NavItemProps) {
  const { pathname } = useLocation();
  const current = isCurrentLink(pathname, to, exact);
  return (
    <Link
      to={to}
      className={current ? `${className} is-current` : className}
      aria-current={current ? 'page' : undefined}
      aria-label={label}
    >
      {children}
    </Link>
  );
}
