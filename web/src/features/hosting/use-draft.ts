import { useCallback, useState } from 'react';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** An object's fields in name order: the server's and an editor's may list the same fields in two orders. */
const byName = (_key: string, v: unknown) =>
  isRecord(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v;

/** Equal as data: what the server sends and what the editors hold are plain JSON, in any field order. */
export const sameValue = (a: unknown, b: unknown) => JSON.stringify(a, byName) === JSON.stringify(b, byName);
const same = sameValue;

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
