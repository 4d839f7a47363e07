import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGame } from '../test/factories';
import { startTestApp, type TestApp } from '../test/test-app';
import { dbKinds } from '../test/test-db';
import { GameClock } from './game-clock';

describe.each(dbKinds)('the game clock (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('scores the other games due in a tick when one fails, logs the failure and retries it', async () => {
    const now = t.clock.now;
    const [failing, fine] = [await makeGame(t.ctx.db, now), await makeGame(t.ctx.db, now)];
    // Both completed a minute ago (makeGame: standby in an hour, complete 5 minutes later).
    await t.ctx.db.query(
      `UPDATE games SET standby_at = $2::timestamptz - interval '6 minutes', complete_at = $2::timestamptz - interval '1 minute'
        WHERE id = ANY($1::uuid[])`,
      [[failing.uuid, fine.uuid], now],
    );
    let broken = true;
    const errors: object[] = [];
    const announced: [string, string][] = [];
    const clock = new GameClock(
      t.ctx,
      (id, state) => announced.push([id, state]),
      async (_tx, gameId) => {
        if (broken && gameId === failing.uuid) throw new Error('statistics failed');
      },
      { error: (details) => errors.push(details) },
    );
    const scored = async () =>
      (
        await t.ctx.db.query<{ id: string }>(
          'SELECT id::text FROM games WHERE id = ANY($1::uuid[]) AND scored_at IS NOT NULL',
          [[failing.uuid, fine.uuid]],
        )
      ).rows.map((r) => r.id);

    await clock.tick();
    expect(await scored()).toEqual([fine.uuid]);
    expect(announced).toContainEqual([fine.uuid, 'complete']);
    expect(announced).not.toContainEqual([failing.uuid, 'complete']);
    expect(errors).toEqual([expect.objectContaining({ gameId: failing.uuid })]);

    broken = false;
    await clock.tick();
    expect((await scored()).sort()).toEqual([failing.uuid, fine.uuid].sort());
    expect(announced).toContainEqual([failing.uuid, 'complete']);
    expect(errors).toHaveLength(1);
  });
});
