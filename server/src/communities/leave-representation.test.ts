import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, migrate } from '../platform/db/migrate';
import { makeCommunity, makeGame, registerPlayer } from '../test/factories';
import { startTestApp, type TestApp } from '../test/test-app';
import { dbKinds, openTestDb } from '../test/test-db';

const CLEANUP = '010-drop-representation-of-left-communities.sql';
/** The stale rows are written on the schema of this migration (the last one the rows below know). */
const SEEDED_ON = '008-demo-bots-lease.sql';

// Leaving a community erases the member's data there (spec §4), and that includes representing it
// in another community's game: the entry stays (its answers are the other community's), playing
// for no community, and answers as the community left are refused.

describe.each(dbKinds)('leaving a community one represents, on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('drops the representation and refuses answers as that community, even after joining it again', async () => {
    const team = await makeCommunity(t.ctx.db, { name: 'Team Rocket' });
    const g = await makeGame(t.ctx.db, t.clock.now, { subcommunities: [team.endpoint] });
    const c = t.client();
    const { username } = await registerPlayer(c);
    for (const id of [g.community.endpoint, team.endpoint])
      expect((await c.put(`/api/community_membership/${id}`)).statusCode).toBe(200);
    const entered = await c.post(`/api/participation/${g.uuid}`, { json: { subcommunity: team.endpoint } });
    expect(entered.json().entry.subcommunity).toEqual({ endpoint: team.endpoint, name: 'Team Rocket' });
    const answer = (question_i: number, subcommunity: string | null) =>
      c.put(`/api/answer/${g.seriesEndpoint}/${g.uuid}`, {
        json: { question_i, choice_i: 0, number_answer: null, subcommunity },
      });
    expect((await answer(0, team.endpoint)).statusCode).toBe(200);
    // A rank within the team from an earlier scoring goes with the representation.
    await t.ctx.db.query(
      `UPDATE participations SET community_rank = 1
        WHERE game_id = $1 AND user_id = (SELECT id FROM users WHERE username = $2)`,
      [g.uuid, username],
    );

    expect((await c.delete(`/api/community_membership/${team.endpoint}`)).statusCode).toBe(200);
    const after = (await c.get(`/api/participation/${g.uuid}`)).json();
    expect(after.entry.subcommunity).toBeNull();
    // The answers belong to the game's community, which the player did not leave.
    expect(Object.keys(after.answers)).toEqual(['0']);
    const { rows } = await t.ctx.db.query<{ subcommunity_id: number | null; community_rank: number | null }>(
      `SELECT subcommunity_id, community_rank FROM participations
        WHERE game_id = $1 AND user_id = (SELECT id FROM users WHERE username = $2)`,
      [g.uuid, username],
    );
    expect(rows).toEqual([{ subcommunity_id: null, community_rank: null }]);

    const refused = await answer(1, team.endpoint);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('You do not represent Team Rocket in this game');
    // Joining again does not bring the representation back: an entry's community is chosen once.
    expect((await c.put(`/api/community_membership/${team.endpoint}`)).statusCode).toBe(200);
    expect((await answer(1, team.endpoint)).statusCode).toBe(403);
    expect(
      (await c.post(`/api/participation/${g.uuid}`, { json: { subcommunity: team.endpoint } })).statusCode,
    ).toBe(409);
    // Playing on for no community is still possible.
    expect((await answer(1, null)).statusCode).toBe(200);
  });

  it('leaves the representation of others, and the player’s other representations, as they were', async () => {
    const [red, blue] = [await makeCommunity(t.ctx.db), await makeCommunity(t.ctx.db)];
    const g1 = await makeGame(t.ctx.db, t.clock.now, { subcommunities: [red!.endpoint, blue!.endpoint] });
    const g2 = await makeGame(t.ctx.db, t.clock.now, {
      subcommunities: [red!.endpoint, blue!.endpoint],
      community: g1.community,
    });
    const [leaver, stayer] = [t.client(), t.client()];
    for (const c of [leaver, stayer]) {
      await registerPlayer(c);
      for (const id of [g1.community.endpoint, red!.endpoint, blue!.endpoint])
        await c.put(`/api/community_membership/${id}`);
    }
    await leaver.post(`/api/participation/${g1.uuid}`, { json: { subcommunity: red!.endpoint } });
    await leaver.post(`/api/participation/${g2.uuid}`, { json: { subcommunity: blue!.endpoint } });
    await stayer.post(`/api/participation/${g1.uuid}`, { json: { subcommunity: red!.endpoint } });

    await leaver.delete(`/api/community_membership/${red!.endpoint}`);
    const subOf = async (c: typeof leaver, uuid: string) =>
      (await c.get(`/api/participation/${uuid}`)).json().entry.subcommunity?.endpoint ?? null;
    expect(await subOf(leaver, g1.uuid)).toBeNull();
    expect(await subOf(leaver, g2.uuid)).toBe(blue!.endpoint);
    expect(await subOf(stayer, g1.uuid)).toBe(red!.endpoint);
  });

  it('drops on migration the representations that earlier leaves left behind', async () => {
    // A database of before the clean-up, with a leave of those days: the membership gone, the
    // representation kept. The later migrations then run on it, the clean-up among them.
    const before = await mkdtemp(path.join(tmpdir(), 'hunch-migrations-'));
    const db = await openTestDb(kind, { migrated: false });
    try {
      for (const f of await readdir(MIGRATIONS_DIR))
        if (f.endsWith('.sql') && f <= SEEDED_ON)
          await copyFile(path.join(MIGRATIONS_DIR, f), path.join(before, f));
      await migrate(db, before);
      // Plain rows: the factories write today's schema.
      const { rows: clubs } = await db.query<{ id: number }>(
        `INSERT INTO communities (endpoint, name) VALUES ('home', 'Home'), ('left', 'Left'), ('kept', 'Kept')
         RETURNING id`,
      );
      const [home, left, kept] = clubs.map((c) => c.id) as [number, number, number];
      const { rows: games } = await db.query<{ id: string }>(
        `WITH s AS (INSERT INTO series (community_id, endpoint, name) VALUES ($1, 'weekly', 'Weekly') RETURNING id)
         INSERT INTO games (id, series_id, open_at, standby_at, complete_at)
         SELECT '00000000-0000-4000-8000-000000000001', s.id, now(), now(), now() FROM s RETURNING id`,
        [home],
      );
      const game = games[0]!.id;
      const { rows: users } = await db.query<{ id: number }>(
        `INSERT INTO users (username, username_key, email, email_key, password_hash, zipcode, date_of_birth)
         SELECT 'm_' || k, 'm_' || k, 'm_' || k || '@x.invalid', 'm_' || k || '@x.invalid', '!', '77002', DATE '1990-01-01'
           FROM generate_series(1, 2) k ORDER BY k RETURNING id`,
      );
      const [leaver, stayer] = users.map((u) => u.id) as [number, number];
      await db.query('INSERT INTO memberships (user_id, community_id) VALUES ($1, $3), ($2, $3), ($2, $4)', [
        leaver,
        stayer,
        home,
        kept,
      ]);
      await db.query(
        `INSERT INTO participations (game_id, user_id, subcommunity_id, community_rank)
         VALUES ($1, $2, $4, 1), ($1, $3, $5, 1)`,
        [game, leaver, stayer, left, kept],
      );

      expect(await migrate(db)).toContain(CLEANUP);
      const { rows } = await db.query<{
        user_id: number;
        subcommunity_id: number | null;
        community_rank: number | null;
      }>(
        'SELECT user_id, subcommunity_id, community_rank FROM participations WHERE game_id = $1 ORDER BY user_id',
        [game],
      );
      expect(rows).toEqual([
        { user_id: leaver, subcommunity_id: null, community_rank: null },
        { user_id: stayer, subcommunity_id: kept, community_rank: 1 },
      ]);
    } finally {
      await db.close();
      await rm(before, { recursive: true, force: true });
    }
  });
});
