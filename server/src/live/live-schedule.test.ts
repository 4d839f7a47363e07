import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../platform/db/database';
import { makeGame } from '../test/factories';
import { countingStatements, openTestDb } from '../test/test-db';
import { LiveScheduleCache } from './live-schedule';

// The schedule cache is asked on every answer and connection: it must read a game once however
// many ask at once, see a host's change before the start, and stop reading once the game started.

describe('live schedule cache', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb('pglite');
  });
  afterAll(async () => {
    await db.close();
  });

  it('reads a game once for many callers at once, and sees a moved start within 2 s before the start', async () => {
    const g = await makeGame(db, new Date(), { synchronous: true });
    const counted = countingStatements(db);
    const cache = new LiveScheduleCache(counted);
    const infos = await Promise.all(Array.from({ length: 200 }, () => cache.get(g.uuid)));
    expect(new Set(infos).size).toBe(1);
    expect(infos[0]?.schedule.startAt).toBe(g.schedule.standby.getTime());
    const readsForOneLoad = counted.count;
    expect(readsForOneLoad).toBeGreaterThan(0);
    expect(readsForOneLoad).toBeLessThanOrEqual(3);

    const moved = new Date(g.schedule.standby.getTime() + 60_000);
    await db.query('UPDATE games SET standby_at = $2 WHERE id = $1', [g.uuid, moved]);
    // Still fresh: the copy answers.
    expect((await cache.get(g.uuid))?.schedule.startAt).toBe(g.schedule.standby.getTime());
    await new Promise((r) => setTimeout(r, 2_100));
    // Stale: the copy answers at once while one re-read runs; the next call sees the new start.
    await cache.get(g.uuid);
    await new Promise((r) => setTimeout(r, 200));
    expect((await cache.get(g.uuid))?.schedule.startAt).toBe(moved.getTime());
    expect(counted.count).toBe(2 * readsForOneLoad);
  });

  it('keeps a copy read after the start, and says so when a game does not exist', async () => {
    const g = await makeGame(db, new Date(), { synchronous: true });
    // The game clock stands an hour after the start.
    const cache = new LiveScheduleCache(db, () => g.schedule.standby.getTime() + 3_600_000);
    const before = await cache.get(g.uuid);
    await db.query('UPDATE games SET standby_at = standby_at + $2::interval WHERE id = $1', [
      g.uuid,
      '1 minute',
    ]);
    await new Promise((r) => setTimeout(r, 2_100));
    expect(await cache.get(g.uuid)).toBe(before);
    expect(await cache.get('00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('forgets games completed more than an hour ago when it reads another', async () => {
    const old = await makeGame(db, new Date(), { synchronous: true });
    const later = await makeGame(db, new Date(), { synchronous: true });
    let clock = old.schedule.complete.getTime() - 60_000;
    const counted = countingStatements(db);
    const cache = new LiveScheduleCache(counted, () => clock);
    const kept = await cache.get(old.uuid);
    const reads = counted.count;
    expect(await cache.get(old.uuid)).toBe(kept);
    expect(counted.count).toBe(reads);
    // Two hours on, reading another game drops the old copy: the next ask reads it again.
    clock = old.schedule.complete.getTime() + 2 * 3_600_000;
    await db.query('UPDATE games SET complete_at = $2 WHERE id = $1', [
      later.uuid,
      new Date(clock + 3_600_000),
    ]);
    await cache.get(later.uuid);
    const again = await cache.get(old.uuid);
    expect(again).not.toBe(kept);
    expect(again?.gameId).toBe(old.uuid);
  });
});
