import { useCallback, useState } from 'react';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** An object's fields in name order: the server's and an editor's may list the same fields in two orders. */
const byName = (_key: string, v: unknown) =>
  isRecord(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v;

/** Equal as data: what the server sends and what the editors hold are plain JSON, in any field order. */
export const sameValue = (a: unknown, b: unknown) => JSON.stringify(a, byName) === JSON.stringify(b, byName);
const same = sameValue;

/** A place the host and a newer save both changed, each their own way: the host's value was kept. */
export interface DraftConflict {
  /** Its path in the draft, written as the document's paths are (`questions.0.text`). */
  path: string;
  /** The value the newer save gave it. */
  theirs: unknown;
}

/**
 * A draft carried over to newer server data, three ways: what the host did not edit follows the
 * new data, what the host edited stays. Objects are merged field by field and lists of one length
 * item by item (a game's questions, a question's choices: known by their place, as the editor
 * numbers them), down to single values, so another tab's edit of one question is not undone by a
 * save of this one's edit of another. Where both changed the same value, or a list's length on
 * both sides, the host's own is kept and named in `conflicts`, for the host to be told.
 */
export function mergeDraft<T>(base: T, draft: T, source: T): { draft: T; conflicts: DraftConflict[] } {
  const conflicts: DraftConflict[] = [];
  const merge = (b: unknown, d: unknown, s: unknown, path: string[]): unknown => {
    if (same(d, b)) return s;
    if (same(s, b) || same(s, d)) return d;
    if (isRecord(b) && isRecord(d) && isRecord(s)) {
      const next: Record<string, unknown> = {};
      for (const key of new Set([...Object.keys(s), ...Object.keys(d), ...Object.keys(b)])) {
        const value = merge(b[key], d[key], s[key], [...path, key]);
        if (value !== undefined) next[key] = value;
      }
      return next;
    }
    const lists = [b, d, s].filter(Array.isArray);
    if (lists.length === 3 && lists.every((l) => l.length === lists[0]!.length)) {
      const [bl, dl, sl] = lists;
      return dl!.map((item, i) => merge(bl![i], item, sl![i], [...path, String(i)]));
    }
    conflicts.push({ path: path.join('.'), theirs: s });
    return d;
  };
  return { draft: merge(base, draft, source, []) as T, conflicts };
}

/** The value at a dotted path (`questions.0.text`), or undefined. */
export function valueAt(value: unknown, path: string): unknown {
  if (path === '') return value;
  let node = value;
  for (const key of path.split('.')) {
    node = isRecord(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

/**
 * An editable copy of server data. When the data changes (a save, an import, another host), an
 * untouched draft follows it; one the host has edited keeps the host's edits (mergeDraft), so no
 * typing is lost, and `conflicts` names the places where the newer data differed there too (until
 * the host makes them match it, or the next change). `canonical` puts a value in the form the
 * server stores it (a set's order), so a draft saved as it stands is not still called changed.
 */
export function useDraft<T>(
  source: T,
  canonical: (value: T) => T = (value) => value,
): [T, (update: (draft: T) => T) => void, boolean, DraftConflict[]] {
  const [state, setState] = useState({ base: source, draft: source, conflicts: [] as DraftConflict[] });
  let current = state;
  if (!same(state.base, source)) {
    // Derived state updated during render, as React documents for props that change.
    current = { base: source, ...mergeDraft(state.base, state.draft, source) };
    setState(current);
  }
  const update = useCallback((f: (draft: T) => T) => setState((s) => ({ ...s, draft: f(s.draft) })), []);
  const { base, draft } = current;
  const conflicts = current.conflicts.filter((c) => !same(valueAt(draft, c.path), valueAt(base, c.path)));
  return [draft, update, !same(canonical(draft), canonical(base)), conflicts];
}
