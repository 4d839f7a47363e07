import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../platform/db/database';
import { dbKinds, openTestDb } from '../test/test-db';
import { jsRound } from './scoring-answers';

/** The doubles on either side of x. */
function neighbours(x: number): number[] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  return [-1n, 1n].map((step) => {
    view.setBigUint64(0, bits + step);
    return view.getFloat64(0);
  });
}

describe.each(dbKinds)('rounding points in SQL on %s', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb(kind);
  });
  afterAll(() => db.close());

  async function rounded(values: number[]): Promise<number[]> {
    const { rows } = await db.query<{ r: number }>(
      `SELECT ${jsRound('x')} AS r FROM unnest($1::float8[]) WITH ORDINALITY AS t (x, k) ORDER BY k`,
      [values],
    );
    return rows.map((r) => r.r);
  }

  it('rounds as Math.round at every half, the doubles beside it, and the double below 0.5', async () => {
    const halves = Array.from({ length: 101 }, (_, k) => k + 0.5);
    const values = [0, 0.49999999999999994, 100, ...halves, ...halves.flatMap(neighbours), 1e-300, 5e-324];
    expect(await rounded(values)).toEqual(values.map((x) => Math.round(x)));
  });

  it('rounds as Math.round over the points range (random doubles)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.double({ min: 0, max: 120, noNaN: true }), { minLength: 1, maxLength: 200 }),
        async (values) => {
          expect(await rounded(values)).toEqual(values.map((x) => Math.round(x)));
        },
      ),
      { numRuns: 30 },
    );
  });
});
