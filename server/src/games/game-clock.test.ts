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
    // The failing game's scoring rolls back in the database itself: its 'complete' event, written
    // inside the scoring transaction, is refused while the flag says so.
    await t.ctx.db.exec(`
      CREATE TABLE clock_test_broken (game_id uuid PRIMARY KEY);
      CREATE FUNCTION clock_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.state = 'complete' AND EXISTS (SELECT 1 FROM clock_test_broken WHERE game_id = NEW.game_id) THEN
            RAISE EXCEPTION 'scoring failed';
          END IF;
          RETURN NEW;
        END $$;
      CREATE TRIGGER clock_test_refuse BEFORE INSERT ON game_state_events
        FOR EACH ROW EXECUTE FUNCTION clock_test_refuse()`);
    await t.ctx.db.query('INSERT INTO clock_test_broken VALUES ($1)', [failing.uuid]);
    const errors: object[] = [];
    const announced: [string, string][] = [];
    const clock = new GameClock(t.ctx, (id, state) => announced.push([id, state]), undefined, {
      error: (details) => errors.push(details),
    });
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

    await t.ctx.db.exec('DROP TABLE clock_test_broken CASCADE; DROP FUNCTION clock_test_refuse CASCADE');
    await clock.tick();
    expect((await scored()).sort()).toEqual([failing.uuid, fine.uuid].sort());
    expect(announced).toContainEqual([failing.uuid, 'complete']);
    expect(errors).toHaveLength(1);
  });

  it('scores a game and announces it when building its statistics beside fails', async () => {
    const game = await makeGame(t.ctx.db, t.clock.now);
    await t.ctx.db.query(
      `UPDATE games SET standby_at = $2::timestamptz - interval '6 minutes', complete_at = $2::timestamptz - interval '1 minute'
        WHERE id = $1`,
      [game.uuid, t.clock.now],
    );
    const announced: [string, string][] = [];
    const asked: string[] = [];
    const clock = new GameClock(t.ctx, (id, state) => announced.push([id, state]), {
      rebuild: async () => undefined,
      ensure: async (_db, gameId) => {
        asked.push(gameId);
        throw new Error('statistics failed');
      },
    });
    await clock.tick();
    expect(asked).toContain(game.uuid);
    expect(announced).toContainEqual([game.uuid, 'complete']);
    const { rows } = await t.ctx.db.query('SELECT 1 FROM games WHERE id = $1 AND scored_at IS NOT NULL', [
      game.uuid,
    ]);
    expect(rows).toHaveLength(1);
  });
});
