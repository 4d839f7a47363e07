import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaveCommunity } from '../communities/membership';
import { loadGame } from '../core/game-queries';
import { enterGame, saveAnswer } from '../core/participation';
import type { Db, Queryable } from '../platform/db/database';
import { makeGame, registerPlayer } from '../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';

// A player may leave a community (over HTTP, from another tab) while one of their requests in its
// games is between checking their entry or membership and writing: the write must then be refused
// as if the check had failed (403), neither fail on the entry gone (500) nor enter them again.

/**
 * The app's database, which runs a step of the test just before the `nth` statement matching
 * `matches` (one at a time, once each): a leave slipped between a request's check and its write.
 */
function interleaving() {
  let step: { matches: RegExp; nth: number; run: () => Promise<unknown> } | undefined;
  const wrap = (db: Db): Db => ({
    kind: db.kind,
    query: (async (text: string, params?: readonly unknown[]) => {
      if (step?.matches.test(text) && --step.nth === 0) {
        const { run } = step;
        step = undefined;
        await run();
      }
      return db.query(text, params);
    }) as Db['query'],
    exec: (text) => db.exec(text),
    transaction: (fn) => db.transaction(fn),
    close: () => db.close(),
  });
  const before = (matches: RegExp, run: () => Promise<unknown>, nth = 1) => {
    step = { matches, nth, run };
  };
  return {
    wrap,
    before,
    get pending() {
      return step !== undefined;
    },
  };
}

describe.each(dbKinds)('leaving a community while answering or entering its game, on %s', (kind) => {
  const between = interleaving();
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { db: between.wrap });
  });
  afterAll(() => t.close());

  /** A player of a fresh game's community; entered in it when `entered`. */
  async function player({ entered }: { entered: boolean }) {
    const g = await makeGame(t.ctx.db, t.clock.now);
    const c = t.client();
    const { username } = await registerPlayer(c);
    const { rows } = await t.ctx.db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [
      username,
    ]);
    const userId = rows[0]!.id;
    expect((await c.put(`/api/community_membership/${g.community.endpoint}`)).statusCode).toBe(200);
    if (entered) expect((await c.post(`/api/participation/${g.uuid}`, { json: {} })).statusCode).toBe(200);
    const leave = async () =>
      expect((await c.delete(`/api/community_membership/${g.community.endpoint}`)).statusCode).toBe(200);
    const entries = async () =>
      (
        await t.ctx.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM participations WHERE game_id = $1 AND user_id = $2',
          [g.uuid, userId],
        )
      ).rows[0]!.n;
    return { g, c, userId, leave, entries };
  }

  const answer = (c: TestClient, g: { uuid: string; seriesEndpoint: string }, question_i: number) =>
    c.put(`/api/answer/${g.seriesEndpoint}/${g.uuid}`, {
      json: { question_i, choice_i: 0, number_answer: null, subcommunity: null },
    });

  it('refuses an answer whose entry goes between its check and its write: 403, as for no entry', async () => {
    const { g, c, leave } = await player({ entered: true });
    expect((await answer(c, g, 0)).statusCode).toBe(200);
    between.before(/INSERT INTO answers/, leave);
    const res = await answer(c, g, 1);
    expect(between.pending).toBe(false);
    expect([res.statusCode, res.body]).toEqual([403, 'Enter the game before answering']);
  });

  it('does not enter a player who leaves between the membership check and the entry’s write', async () => {
    const { g, c, leave, entries } = await player({ entered: false });
    between.before(/INSERT INTO participations/, leave);
    const res = await c.post(`/api/participation/${g.uuid}`, { json: {} });
    expect(between.pending).toBe(false);
    expect(res.statusCode).toBe(403);
    expect(res.body).toMatch(/^Join .+ to play this game$/);
    expect(await entries()).toBe(0);
  });

  it('answers 403 to entering again when the entry goes before it is read back', async () => {
    const { g, c, leave, entries } = await player({ entered: true });
    // The second reading of the entry: the route's, after entering found or wrote it.
    between.before(/FROM participations p LEFT JOIN communities/, leave, 2);
    const res = await c.post(`/api/participation/${g.uuid}`, { json: {} });
    expect(between.pending).toBe(false);
    expect(res.statusCode).toBe(403);
    expect(res.body).toMatch(/^Join .+ to play this game$/);
    expect(await entries()).toBe(0);
  });

  // A leave caught midway on another connection: PostgreSQL only (PGlite has one connection, so
  // nothing runs while a transaction is open).
  if (kind === 'postgres') {
    /** `db`, whose transactions run `pause` after their `k`-th statement. */
    const pausingAfter = (db: Db, k: number, pause: () => Promise<void>): Db => ({
      ...db,
      transaction: (fn) =>
        db.transaction((tx) => {
          let n = 0;
          const paused: Queryable = {
            query: (async (text: string, params?: readonly unknown[]) => {
              const result = await tx.query(text, params);
              if (++n === k) await pause();
              return result;
            }) as Queryable['query'],
            exec: (text) => tx.exec(text),
          };
          return fn(paused);
        }),
    });
    const LEAVE_STATEMENTS = 3;

    /** Runs `write` on the app's pool while a leave of the player stands after each of its statements. */
    async function duringLeave(
      entered: boolean,
      write: (db: Db, userId: number, gameId: string) => Promise<unknown>,
    ) {
      const outcomes: PromiseSettledResult<unknown>[] = [];
      for (let k = 1; k <= LEAVE_STATEMENTS; k++) {
        const p = await player({ entered });
        // Settled as it ends: a refusal arriving while the leave goes on is not left unhandled.
        let written: Promise<PromiseSettledResult<unknown>[]> | undefined;
        const pause = async () => {
          written = Promise.allSettled([write(t.ctx.db, p.userId, p.g.uuid)]);
          // Long enough for the write to reach the rows the leave holds and wait on them.
          await new Promise((r) => setTimeout(r, 300));
        };
        await leaveCommunity(pausingAfter(t.ctx.db, k, pause), p.userId, p.g.community.id);
        const [outcome] = (await written) ?? [];
        outcomes.push(outcome!);
        expect([k, await p.entries()]).toEqual([k, 0]);
      }
      return outcomes;
    }

    it('an answer written while a leave is under way is refused, not a foreign-key error', async () => {
      const outcomes = await duringLeave(true, async (db, userId, gameId) => {
        const { rows } = await db.query<{ id: number }>(
          'SELECT id FROM participations WHERE game_id = $1 AND user_id = $2',
          [gameId, userId],
        );
        return saveAnswer(db, rows[0]!.id, { question_i: 0, choice_i: 0, number_answer: null });
      });
      // Stored before the leave reached the entry (and gone with it), or refused: never an error.
      expect(outcomes.map((o) => o.status)).toEqual(Array(LEAVE_STATEMENTS).fill('fulfilled'));
      // Once the leave has taken the entry, the answer waits for it and is refused.
      expect(outcomes.at(-1)).toEqual({ status: 'fulfilled', value: false });
    });

    it('an entry written while a leave is under way is refused, and none is left behind', async () => {
      const outcomes = await duringLeave(false, async (db, userId, gameId) =>
        enterGame(db, (await loadGame(db, gameId, t.clock.now))!, userId, null),
      );
      for (const o of outcomes) {
        expect(o.status).toBe('rejected');
        expect((o as PromiseRejectedResult).reason).toMatchObject({ statusCode: 403 });
      }
    });
  }
});
