// socket.io keeps three Maps per player that hold one entry or none: the socket's acknowledgements
// awaited (`socket.acks`, empty once the latency probe is answered) and its client's sockets by id
// and by namespace (`client.sockets`, `client.nsps`: one namespace per live connection). V8 gives
// every Map a hash table for four entries from the start: ~0.18 KB each, ~0.55 KB a player
// (decision 029). socket.io only calls get, set, has, delete, clear, values and size on them, so
// each is replaced, as the live socket connects, by a map of at most one entry in two fields,
// which moves into a real Map when a second entry comes.

/** Stands in `key` while the map holds several entries (then `value` is the Map). */
const MANY = Symbol('hunch.many');
/** Stands in `key` while the map is empty. */
const NONE = Symbol('hunch.none');

/** SameValueZero, as Map compares keys. */
const same = (a: unknown, b: unknown) => a === b || (Number.isNaN(a) && Number.isNaN(b));

/** A Map that keeps one entry without a hash table (see above); behaves as a Map for every use. */
export class OneEntryMap<K, V> {
  private key: K | typeof NONE | typeof MANY;
  private value: V | Map<K, V> | undefined;

  constructor(entries?: Iterable<readonly [K, V]>) {
    this.key = NONE;
    this.value = undefined;
    if (entries) for (const [k, v] of entries) this.set(k, v);
  }

  private get many(): Map<K, V> | null {
    return this.key === MANY ? (this.value as Map<K, V>) : null;
  }

  get size(): number {
    return this.many?.size ?? (this.key === NONE ? 0 : 1);
  }

  get(key: K): V | undefined {
    const many = this.many;
    if (many) return many.get(key);
    return this.key !== NONE && same(this.key, key) ? (this.value as V) : undefined;
  }

  has(key: K): boolean {
    const many = this.many;
    if (many) return many.has(key);
    return this.key !== NONE && same(this.key, key);
  }

  set(key: K, value: V): this {
    const many = this.many;
    if (many) many.set(key, value);
    else if (this.key === NONE) {
      // A Map keeps -0 as +0.
      this.key = Object.is(key, -0) ? (0 as K) : key;
      this.value = value;
    } else if (same(this.key, key)) this.value = value;
    else {
      const map = new Map<K, V>([[this.key as K, this.value as V]]);
      map.set(key, value);
      this.key = MANY;
      this.value = map;
    }
    return this;
  }

  delete(key: K): boolean {
    const many = this.many;
    if (many) return many.delete(key);
    if (this.key === NONE || !same(this.key, key)) return false;
    this.clear();
    return true;
  }

  clear(): void {
    this.key = NONE;
    this.value = undefined;
  }

  forEach(callback: (value: V, key: K, map: OneEntryMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) callback.call(thisArg, v, k, this);
  }

  *entries(): IterableIterator<[K, V]> {
    const many = this.many;
    if (many) yield* many.entries();
    else if (this.key !== NONE) yield [this.key as K, this.value as V];
  }

  *keys(): IterableIterator<K> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): IterableIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'Map';
  }
}

/** A Map of at most one entry, as a OneEntryMap; anything else as it is. */
export function smaller<K, V>(map: unknown): unknown {
  return map instanceof Map && map.size <= 1 ? new OneEntryMap<K, V>(map as Map<K, V>) : map;
}
