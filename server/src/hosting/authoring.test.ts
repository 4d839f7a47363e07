import { liveEndsAt } from '@hunch/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../platform/db/database';
import { makeCommunity, standardQuestions } from '../test/factories';
import { openTestDb } from '../test/test-db';
import { createGame, createSeries } from './authoring';

// A live game's results are scored at its complete time, so it must be over by then.

describe('authoring a live game', () => {
  let db: Db;
  let seriesId: number;
  beforeAll(async () => {
    db = await openTestDb('pglite');
    const community = await makeCommunity(db);
    seriesId = await createSeries(db, {
      communityId: community.id,
      endpoint: 'authoring',
      name: 'Authoring',
    });
  });
  afterAll(() => db.close());

  const questions = () => standardQuestions.map((q) => ({ ...q, secs_to_answer: 10 }));
  // One game per standby time in a series: each case plays on its own day.
  const standby = (day: number) => new Date(Date.UTC(2030, 0, day, 12));
  const liveEnd = (day: number) =>
    liveEndsAt({ startAt: standby(day).getTime(), secs: questions().map(() => 10) });
  const game = (day: number, complete: number, synchronous: boolean) => ({
    schedule: {
      open: new Date(standby(day).getTime() - 3_600_000),
      standby: standby(day),
      complete: new Date(complete),
    },
    synchronous,
    questions: questions(),
  });

  it('refuses a live game that completes before its live part ends, and stores nothing of it', async () => {
    await expect(createGame(db, seriesId, game(1, liveEnd(1) - 1_000, true))).rejects.toThrow(
      /A live game must complete after its live part ends/,
    );
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM games WHERE series_id = $1',
      [seriesId],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('accepts a live game that completes when its live part ends, and a solo game completing earlier', async () => {
    await expect(createGame(db, seriesId, game(2, liveEnd(2), true))).resolves.toMatch(/^[0-9a-f-]{36}$/);
    await expect(createGame(db, seriesId, game(3, liveEnd(3) - 1_000, false))).resolves.toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });
});
