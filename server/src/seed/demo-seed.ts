import { geoGroupFor } from '../accounts/geo-groups';
import { hashPassword } from '../accounts/passwords';
import { ensureGeoCommunity } from '../accounts/registration';
import { loadQuestionRows } from '../core/question-queries';
import type { Actor } from '../hosting/audit-log';
import { categoryId } from '../hosting/authoring';
import { addHost } from '../hosting/host-queries';
import { importSeason } from '../hosting/season-import';
import { SeasonRefusal } from '../hosting/season-refusal';
import type { AppContext } from '../platform/app-context';
import type { Db, Queryable } from '../platform/db/database';
import { adjectives, animals, demoCommunities, demoZipcodes } from './demo-content';
import { type DemoSeason, demoSeasons } from './demo-seasons';
import { seasonZip } from './season-zip';
import { type Random, seededRandom } from './seeded-random';

/** A demo account anyone can log in with (README). */
export const DEMO_LOGIN = { username: 'demo_player', password: 'hunch123' } as const;
/** A demo account that hosts every demo community, so the console can be tried at once (README). */
export const DEMO_HOST = { username: 'demo_host', password: 'hunch123' } as const;
/** Who the audit log says created the demo content. */
export const DEMO_SEED_ACTOR: Actor = { userId: null, name: 'demo seed' };

// Any constant apart from the migrations' (platform/db/migrate.ts): the processes starting on one
// database take it in turn, so only the first seeds.
const SEED_LOCK = 72_410_002;

export interface SeedOptions {
  players: number;
}

/**
 * Seeds demo content when the database has no community yet. Returns whether it seeded. The
 * content (communities, series, games, questions and their pictures) is a season document per
 * demo community, imported as a host's .zip is (decision 020); players, memberships, answers and
 * demo_host are written here.
 */
export async function seedDemoIfEmpty(
  ctx: AppContext,
  options: SeedOptions = { players: 400 },
): Promise<boolean> {
  const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM communities');
  if (rows[0]!.n > 0) return false;
  // Pictures and documents first, then every row in one transaction: a crash mid-seed leaves an
  // empty database that the next start seeds again, never half a demo.
  const seasons = await demoSeasons(ctx.now());
  const demoHash = await hashPassword(DEMO_LOGIN.password);
  return ctx.db.transaction(async (tx) => {
    // Claimed as the migrations are: whoever waited here finds the content there and leaves it.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK]);
    const again = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM communities');
    if (again.rows[0]!.n > 0) return false;
    const uuids = await importDemoSeasons(ctx, tx, seasons);
    const { rows: ids } = await tx.query<{ id: number; endpoint: string }>(
      'SELECT id, endpoint FROM communities WHERE endpoint = ANY($1::text[])',
      [demoCommunities.map((c) => c.endpoint)],
    );
    const communityIds = new Map(ids.map((r) => [r.endpoint, r.id]));
    const rnd = seededRandom(20261122);
    const players = await seedPlayers(tx, ctx, rnd, options.players, demoHash);
    await seedMemberships(tx, rnd, players, communityIds);
    // In the order of the demo's definition, so the same players give the same answers.
    for (const season of seasons) {
      for (const g of season.games) {
        if (g.share === null) continue;
        const uuid = uuids.get(`${season.endpoint}/${g.series}/${g.key}`)!;
        const teams = g.teams.map((e) => communityIds.get(e)!);
        await seedAnswers(tx, rnd, uuid, communityIds.get(season.endpoint)!, g.share, teams);
      }
    }
    await seedDemoHost(tx, demoHash, [...communityIds.values()]);
    return true;
  });
}

/**
 * Imports the demo's season documents inside the seed's transaction, through the one import hosts
 * use; returns the uuid of each game by `community/series/key`.
 */
async function importDemoSeasons(
  ctx: AppContext,
  tx: Queryable,
  seasons: DemoSeason[],
): Promise<Map<string, string>> {
  // Categories of the unnamed group cannot be named by a season file (it has no group name to
  // write); they are created here, in the order and at the places the demo lists them.
  for (const c of demoCommunities) {
    for (const [i, cat] of c.categories.entries()) {
      if (cat.group === null) await categoryId(tx, null, cat.name, i);
    }
  }
  // A community playing as a team in another's game exists before that game is imported.
  const namesTeams = (s: DemoSeason) => s.games.some((g) => g.teams.length > 0);
  const ordered = [...seasons].sort((a, b) => Number(namesTeams(a)) - Number(namesTeams(b)));
  // The imports run side by side up to their writes (reading the bundle, checking and re-encoding
  // its pictures, which is most of their time, on sharp's threads); each then writes in its turn,
  // in that order, inside the seed's transaction: all the demo lands together, or none of it.
  let previous: Promise<unknown> = Promise.resolve();
  const imports = ordered.map((s) => {
    const after = previous;
    const db: Db = {
      kind: ctx.db.kind,
      query: tx.query.bind(tx),
      exec: tx.exec.bind(tx),
      transaction: async (fn) => {
        await after;
        return fn(tx);
      },
      close: async () => undefined,
    };
    const done = importSeason(
      db,
      { kind: 'zip', bytes: seasonZip(s.season, s.files) },
      {
        dryRun: false,
        actor: DEMO_SEED_ACTOR,
        authorize: async () => undefined,
        now: ctx.now(),
        uploadsDir: ctx.uploadsDir,
      },
    );
    previous = done.catch(() => undefined);
    return done;
  });
  // Every import has finished with the transaction before it ends (committed or rolled back).
  const settled = await Promise.allSettled(imports);
  const uuids = new Map<string, string>();
  for (const [i, result] of settled.entries()) {
    const s = ordered[i]!;
    if (result.status === 'rejected') {
      const err = result.reason;
      if (!(err instanceof SeasonRefusal)) throw err;
      const problems = err.problems.map((p) => `${p.path}: ${p.message}`).join('; ');
      throw new Error(`The demo season of ${s.endpoint} does not import: ${problems}`);
    }
    for (const g of result.value.games) uuids.set(`${s.endpoint}/${g.series}/${g.key}`, g.uuid!);
  }
  return uuids;
}

/** demo_host: lives where demo_player lives (same password), hosts the demo communities, plays none. */
async function seedDemoHost(tx: Queryable, hash: string, communityIds: number[]): Promise<void> {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO users (username, username_key, email, email_key, password_hash, zipcode, geo_community_id,
                        date_of_birth, is_demo)
     SELECT $1, lower($1), $2, lower($2), $3, zipcode, geo_community_id, date_of_birth, true
       FROM users WHERE username_key = $4
     RETURNING id`,
    [DEMO_HOST.username, `${DEMO_HOST.username}@demo.hunch.example`, hash, DEMO_LOGIN.username],
  );
  const host = rows[0]!;
  // Like every registration, a member of its geo-group.
  await tx.query(
    `INSERT INTO memberships (user_id, community_id)
     SELECT id, geo_community_id FROM users WHERE id = $1 AND geo_community_id IS NOT NULL`,
    [host.id],
  );
  for (const id of communityIds) await addHost(tx, id, host.id);
}

interface DemoPlayer {
  id: number;
}

async function seedPlayers(
  tx: Queryable,
  ctx: AppContext,
  rnd: Random,
  count: number,
  demoHash: string,
): Promise<DemoPlayer[]> {
  const today = ctx.now();
  const geoIds = new Map<string, number>();
  for (const zip of demoZipcodes) {
    const group = geoGroupFor(zip);
    if (group) geoIds.set(zip, await ensureGeoCommunity(tx, group, ctx.uploadsDir));
  }
  const cols: Record<string, unknown[]> = {
    username: [],
    email: [],
    hash: [],
    zip: [],
    geo: [],
    dob: [],
    gender: [],
    priv: [],
  };
  const taken = new Set<string>();
  for (let n = 0; n < count; n++) {
    let username = n === 0 ? DEMO_LOGIN.username : '';
    while (!username || taken.has(username))
      username = `${rnd.pick(adjectives)}_${rnd.pick(animals)}${rnd.int(10, 99)}`;
    taken.add(username);
    const zip = rnd.pick(demoZipcodes);
    // Ages 12 to 75, most between 18 and 45, so every statistics bracket has players.
    const age =
      n === 0
        ? 30
        : rnd.chance(0.12)
          ? rnd.int(12, 17)
          : rnd.chance(0.75)
            ? rnd.int(18, 45)
            : rnd.int(46, 75);
    const dob = new Date(Date.UTC(today.getUTCFullYear() - age - 1, rnd.int(0, 11), rnd.int(1, 28)));
    cols.username!.push(username);
    cols.email!.push(`${username}@demo.hunch.example`);
    // '!' is no argon2 hash: demo players cannot log in, except the one demo account.
    cols.hash!.push(n === 0 ? demoHash : '!');
    cols.zip!.push(zip);
    cols.geo!.push(geoIds.get(zip) ?? null);
    cols.dob!.push(dob.toISOString().slice(0, 10));
    cols.gender!.push(rnd.pick(['female', 'male', 'non-binary', null]));
    cols.priv!.push(age < 18 || rnd.chance(0.1));
  }
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO users (username, username_key, email, email_key, password_hash, zipcode, geo_community_id,
                        date_of_birth, gender, is_private, is_demo)
     SELECT u, lower(u), e, lower(e), h, z, g, d::date, gd, p, true
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::bool[])
            AS t(u, e, h, z, g, d, gd, p)
     RETURNING id`,
    [cols.username, cols.email, cols.hash, cols.zip, cols.geo, cols.dob, cols.gender, cols.priv],
  );
  await tx.query(
    `INSERT INTO memberships (user_id, community_id) SELECT id, geo_community_id FROM users
      WHERE is_demo AND geo_community_id IS NOT NULL ON CONFLICT DO NOTHING`,
  );
  return rows;
}

async function seedMemberships(
  tx: Queryable,
  rnd: Random,
  players: DemoPlayer[],
  ids: Map<string, number>,
): Promise<void> {
  const users: number[] = [];
  const communities: number[] = [];
  for (const [n, p] of players.entries()) {
    for (const c of demoCommunities) {
      // The demo account joins a few communities so its profile and lists are filled.
      const joins =
        n === 0
          ? ['hunch-hq', 'the-movie-buffs', 'chart-toppers'].includes(c.endpoint)
          : rnd.chance(c.weight);
      if (joins) {
        users.push(p.id);
        communities.push(ids.get(c.endpoint)!);
      }
    }
  }
  await tx.query(
    `INSERT INTO memberships (user_id, community_id, joined_at)
     SELECT u, c, now() - (random() * interval '90 days') FROM unnest($1::int[], $2::int[]) AS t(u, c)
     ON CONFLICT DO NOTHING`,
    [users, communities],
  );
}

/** Demo players of the community answer: choices with a per-game popularity, numbers near a centre. */
async function seedAnswers(
  tx: Queryable,
  rnd: Random,
  gameId: string,
  communityId: number,
  share: number,
  teams: number[],
): Promise<void> {
  // The demo account plays every completed game it can, so its results show head-to-heads; it
  // leaves open games to its visitor.
  const withDemoLogin = share > 0.5;
  const members = await tx.query<{ user_id: number; teams: number[]; login: boolean }>(
    `SELECT m.user_id, COALESCE(array_agg(t.community_id) FILTER (WHERE t.community_id IS NOT NULL), '{}') AS teams,
            bool_or(u.username = $3) AS login
       FROM memberships m JOIN users u ON u.id = m.user_id AND u.is_demo
       LEFT JOIN memberships t ON t.user_id = m.user_id AND t.community_id = ANY($2::int[])
      WHERE m.community_id = $1 GROUP BY m.user_id ORDER BY m.user_id`,
    [communityId, teams, DEMO_LOGIN.username],
  );
  const chosen = members.rows.filter(
    (m) => (m.login ? withDemoLogin : rnd.chance(share)) && (teams.length === 0 || m.teams.length > 0),
  );
  if (chosen.length === 0) return;
  const parts = await tx.query<{ id: number }>(
    `INSERT INTO participations (game_id, user_id, subcommunity_id)
     SELECT $1::uuid, u, s FROM unnest($2::int[], $3::int[]) AS t(u, s) RETURNING id`,
    [gameId, chosen.map((m) => m.user_id), chosen.map((m) => (teams.length ? rnd.pick(m.teams) : null))],
  );
  const questions = await loadQuestionRows(tx, gameId);
  const pid: number[] = [];
  const qi: number[] = [];
  const ci: (number | null)[] = [];
  const num: (number | null)[] = [];
  for (const q of questions) {
    const popularity = Array.from({ length: q.choices.length }, () => rnd.next() + 0.2);
    const min = q.slider_min ?? 0;
    const max = q.slider_max ?? 0;
    const step = q.slider_step ?? 1;
    const centre = q.outcome ?? min + (max - min) * (0.25 + rnd.next() * 0.4);
    for (const p of parts.rows) {
      pid.push(p.id);
      qi.push(q.i);
      if (q.kind === 'predict') {
        const x = Math.min(max, Math.max(min, centre + rnd.normal() * (max - min) * 0.15));
        ci.push(null);
        num.push(Math.round((x - min) / step) * step + min);
      } else {
        ci.push(rnd.weighted(popularity));
        num.push(null);
      }
    }
  }
  await tx.query(
    `INSERT INTO answers (participation_id, question_i, choice_i, number_answer)
     SELECT p, q, c, n FROM unnest($1::int[], $2::int[], $3::int[], $4::float8[]) AS t(p, q, c, n)`,
    [pid, qi, ci, num],
  );
}
