import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OneEntryMap, smaller } from './small-maps';

// The small map stands in for socket.io's Maps (small-maps.ts): whatever is done to it, it must
// answer as a Map would.

const key = fc.oneof(fc.constantFrom('a', 'b', 'c', 0, 1, Number.NaN, -0), fc.integer({ min: 0, max: 3 }));
const op = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key, value: fc.integer() }),
  fc.record({ kind: fc.constant('delete' as const), key }),
  fc.record({ kind: fc.constant('clear' as const) }),
);

describe('OneEntryMap', () => {
  it('answers get, has, size and iteration as a Map after any operations', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const map = new Map<unknown, number>();
        const small = new OneEntryMap<unknown, number>();
        for (const o of ops) {
          if (o.kind === 'set') {
            expect(small.set(o.key, o.value)).toBe(small);
            map.set(o.key, o.value);
          } else if (o.kind === 'delete') expect(small.delete(o.key)).toBe(map.delete(o.key));
          else {
            small.clear();
            map.clear();
          }
          expect(small.size).toBe(map.size);
          for (const k of ['a', 'b', 'c', 0, 1, 2, 3, Number.NaN, -0]) {
            expect(small.get(k)).toBe(map.get(k));
            expect(small.has(k)).toBe(map.has(k));
          }
          expect([...small]).toEqual([...map]);
          expect([...small.keys()]).toEqual([...map.keys()]);
          expect([...small.values()]).toEqual([...map.values()]);
          const seen: unknown[] = [];
          small.forEach((v, k) => {
            seen.push([k, v]);
          });
          expect(seen).toEqual([...map.entries()]);
        }
      }),
    );
  });

  it('takes the place of a Map of at most one entry, and leaves others alone', () => {
    const one = new Map([['x', 1]]);
    const replaced = smaller(one) as OneEntryMap<string, number>;
    expect(replaced).toBeInstanceOf(OneEntryMap);
    expect(replaced.get('x')).toBe(1);
    const two = new Map([
      ['x', 1],
      ['y', 2],
    ]);
    expect(smaller(two)).toBe(two);
    expect(smaller(undefined)).toBeUndefined();
    expect(Object.prototype.toString.call(replaced)).toBe('[object Map]');
  });
});
