import type { SeasonProblem } from './season-schema';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Each key of a mapping by its place as written, read once per mapping (one may hold thousands). */
type KeyPlaces = WeakMap<object, { places: Map<string, number>; keys: string[] }>;

function keyPlaces(node: Record<string, unknown>, cache: KeyPlaces) {
  let entry = cache.get(node);
  if (!entry) {
    const keys = Object.keys(node);
    entry = { places: new Map(keys.map((k, i) => [k, i])), keys };
    cache.set(node, entry);
  }
  return entry;
}

/**
 * Where a path sits in the document, as positions to compare: a list's index, a mapping's key by
 * its place among the keys as written. A field that is missing is the mapping's own problem: it
 * comes before the mapping's fields (where the mapping starts, as its line and column say).
 */
function positionOf(path: string, value: unknown, cache: KeyPlaces): number[] {
  const segments = path === '' ? [] : path.split('.');
  const position: number[] = [];
  let node = value;
  let i = 0;
  while (i < segments.length) {
    if (Array.isArray(node) && /^\d+$/.test(segments[i]!)) {
      const index = Number(segments[i]);
      position.push(index);
      node = node[index];
      i++;
      continue;
    }
    if (!isRecord(node)) break;
    const { places, keys } = keyPlaces(node, cache);
    // A key may hold dots (a category group 'U.S. sports'): the shortest run of segments naming one.
    let found: number | undefined;
    let end = i;
    while (found === undefined && end < segments.length)
      found = places.get(segments.slice(i, ++end).join('.'));
    if (found === undefined) {
      position.push(-1);
      break;
    }
    position.push(found);
    node = node[keys[found]!];
    i = end;
  }
  return position;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  // A part before what it holds: a game's problem before those of its questions.
  return a.length - b.length;
}

/**
 * A document's problems in the order its parts are written, each once. Problems at one place keep
 * the order they were found in: its shape first, then the rules of the document, then the stored
 * state.
 */
export function inDocumentOrder(problems: SeasonProblem[], value: unknown): SeasonProblem[] {
  const seen = new Set<string>();
  const once = problems.filter((p) => {
    const key = `${p.path}\n${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const cache: KeyPlaces = new WeakMap();
  const placed = once.map((problem) => ({ problem, position: positionOf(problem.path, value, cache) }));
  return placed.sort((a, b) => compare(a.position, b.position)).map((p) => p.problem);
}
