import { useCallback, useState } from 'react';

/** Equal as data: what the server sends and what the editors hold are plain JSON. */
export const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const same = sameValue;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A draft carried over to newer server data: an object takes the new data's fields except those the
 * host edited (changed from the old data), so a field another host saved meanwhile is not undone
 * by a later save of this screen. Anything else is kept whole once edited.
 */
export function rebaseDraft<T>(base: T, draft: T, source: T): T {
  if (same(draft, base)) return source;
  if (!isRecord(base) || !isRecord(draft) || !isRecord(source)) return draft;
  const next: Record<string, unknown> = { ...source };
  for (const key of new Set([...Object.keys(base), ...Object.keys(draft)])) {
    if (same(draft[key], base[key])) continue;
    if (key in draft) next[key] = draft[key];
    else delete next[key];
  }
  return next as T;
}

/**
 * An editable copy of server data. When the data changes (a save, an import, another host), an
 * untouched draft follows it; one the host has edited keeps the host's edits (rebaseDraft), so no
 * typing is lost. `canonical` puts a value in the form the server stores it (a set's order), so a
 * draft saved as it stands is not still called changed.
 */
export function useDraft<T>(
  source: T,
  canonical: (value: T) => T = (value) => value,
): [T, (update: (draft: T) => T) => void, boolean] {
  const [state, setState] = useState({ base: source, draft: source });
  let current = state;
  if (!same(state.base, source)) {
    // Derived state updated during render, as React documents for props that change.
    current = { base: source, draft: rebaseDraft(state.base, state.draft, source) };
    setState(current);
  }
  const update = useCallback((f: (draft: T) => T) => setState((s) => ({ ...s, draft: f(s.draft) })), []);
  return [current.draft, update, !same(canonical(current.draft), canonical(current.base))];
}
