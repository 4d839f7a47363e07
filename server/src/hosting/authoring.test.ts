import { tmpdir } from 'node:os';
import type { SeasonGameInput } from '@hunch/contract';
import { liveEndsAt } from '@hunch/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../platform/db/database';
import { dbKinds, openTestDb } from '../test/test-db';
import { COMMAND_LINE } from './audit-log';
import { importSeason } from './season-import';
import { SeasonRefusal } from './season-refusal';

// A live game's results are scored at its complete time, so it must be over by then. Content is
// created through the season import (the seed too), so that is where the rule is held.

describe.each(dbKinds)('authoring a live game (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb(kind);
  });
  afterAll(() => db.close());

  const SECS = 10;
  const questions: SeasonGameInput['questions'] = [
    { kind: 'vote', text: 'Favourite colour?', choices: ['Red', 'Green', 'Blue'], secs_to_answer: SECS },
    {
      kind: 'guess',
      text: 'Most popular colour?',
      choices: ['Red', 'Green', 'Blue'],
      linked_vote: 1,
      secs_to_answer: SECS,
    },
  ];
  // One game per standby time in a series: each case plays on its own day.
  const standby = (day: number) => new Date(Date.UTC(2030, 0, day, 12));
  const liveEnd = (day: number) =>
    liveEndsAt({ startAt: standby(day).getTime(), secs: questions.map(() => SECS) });
  const game = (day: number, complete: number, synchronous: boolean): SeasonGameInput => ({
    key: `day-${day}`,
    synchronous,
    schedule: {
      open: new Date(standby(day).getTime() - 3_600_000).toISOString(),
      standby: standby(day).toISOString(),
      complete: new Date(complete).toISOString(),
    },
    questions,
  });
  const importGames = (games: SeasonGameInput[]) =>
    importSeason(
      db,
      {
        kind: 'text',
        text: JSON.stringify({
          community: { endpoint: 'authoring', name: 'Authoring' },
          series: [{ endpoint: 'live', name: 'Live', games }],
        }),
        format: 'json',
      },
      {
        dryRun: false,
        actor: COMMAND_LINE,
        authorize: async () => undefined,
        now: new Date(Date.UTC(2029, 0, 1)),
        uploadsDir: tmpdir(),
      },
    );

  it('refuses a live game that completes before its live part ends, at its path, and stores nothing', async () => {
    const refusal = await importGames([game(1, liveEnd(1) - 1_000, true)]).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(SeasonRefusal);
    expect((refusal as SeasonRefusal).problems).toEqual([
      expect.objectContaining({
        path: 'series.0.games.0.schedule.complete',
        message: expect.stringMatching(/A live game must complete after its questions end/),
      }),
    ]);
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM games');
    expect(rows[0]!.n).toBe(0);
  });

  it('accepts a live game that completes when its live part ends, and a solo game completing earlier', async () => {
    const result = await importGames([game(2, liveEnd(2), true), game(3, liveEnd(3) - 1_000, false)]);
    expect(result.created.games).toBe(2);
    expect(result.games.map((g) => g.uuid)).toEqual([
      expect.stringMatching(/^[0-9a-f-]{36}$/),
      expect.stringMatching(/^[0-9a-f-]{36}$/),
    ]);
  });
});
