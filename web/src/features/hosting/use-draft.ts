import { useCallback, useState } from 'react';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * An editable copy of server data. When the data changes (a save, an import, another host), an
 * untouched draft follows it; one the host has edited is kept, so no typing is lost.
 */
export function useDraft<T>(source: T): [T, (update: (draft: T) => T) => void, boolean] {
  const [state, setState] = useState({ base: source, draft: source });
  let current = state;
  if (!same(state.base, source)) {
    // Derived state updated during render, as React documents for props that change.
    current = { base: source, draft: same(state.draft, state.base) ? source : state.draft };
    setState(current);
  }
  const update = useCallback((f: (draft: T) => T) => setState((s) => ({ ...s, draft: f(s.draft) })), []);
  return [current.draft, update, !same(current.draft, current.base)];
}
