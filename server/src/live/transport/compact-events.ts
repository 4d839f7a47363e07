// Node's EventEmitter keeps its listeners in `_events`, an object without a prototype that V8 holds
// as a hash table ("dictionary mode"): 160–448 bytes for the 3–6 event names engine.io, ws and
// socket.io listen to on each connection, four such tables a player (~1.1 KB, decision 029). The
// same names in an ordinary object (fast properties, its layout shared by every connection that
// listens to the same names) take 60–100 bytes. Nothing outside the emitter keeps the table, and
// EventEmitter reads `_events` afresh on every call, so it can be swapped for such a copy.

interface Emitter {
  _events?: unknown;
}

/**
 * The prototype of the copies: empty and without a prototype of its own, so no inherited name
 * (`toString`, `constructor`) reads as a listener. A copy made on it keeps fast properties, and
 * copies with the same names share one layout (V8 caches the first map per prototype). Dropping
 * the copy's prototype instead gave each its own layout (~0.2 KB).
 */
const TABLE = Object.create(null) as object;

/**
 * Swaps the emitter's listener table for a compact copy (same names, same listeners, in the same
 * order, nothing inherited). Emitters whose table is not a prototype-less object (streams already
 * keep theirs in a compact object of their own) are left as they are.
 *
 * `once`: events the emitter emits at most once in its life, whose `once` listeners are kept as
 * the plain listener inside. Node wraps each `once` listener in a bound function with a state
 * object and a property (~0.14 KB each), there only to remove it after its first call; an event
 * that never comes twice does not need that. The listener is still removed by reference
 * (`removeListener(event, listener)` matches it as before).
 */
export function compactEvents(emitter: object, once: readonly string[] = []): void {
  const events = (emitter as Emitter)._events;
  if (typeof events !== 'object' || events === null || Object.getPrototypeOf(events) !== null) return;
  const table = events as Record<string | symbol, unknown>;
  const copy = Object.create(TABLE) as Record<string | symbol, unknown>;
  for (const key of Reflect.ownKeys(table)) {
    const value = table[key];
    copy[key] = typeof key === 'string' && once.includes(key) ? unwrapped(value) : value;
  }
  (emitter as Emitter)._events = copy;
}

/** Node's wrapper of a `once` listener: a bound `onceWrapper` with the listener as `.listener`. */
type OnceWrapper = ((...args: unknown[]) => unknown) & { listener?: unknown };

const isOnceWrapper = (f: unknown): f is OnceWrapper & { listener: (...args: unknown[]) => unknown } =>
  typeof f === 'function' &&
  f.name === 'bound onceWrapper' &&
  typeof (f as OnceWrapper).listener === 'function';

/** A table entry (one listener or an array of them) with `once` wrappers replaced by their listener. */
function unwrapped(value: unknown): unknown {
  if (isOnceWrapper(value)) return value.listener;
  if (Array.isArray(value) && value.some(isOnceWrapper))
    return value.map((f: unknown) => (isOnceWrapper(f) ? f.listener : f));
  return value;
}
