import { geoGroupFor } from '../accounts/geo-groups';
import { hashPassword } from '../accounts/passwords';
import { ensureGeoCommunity } from '../accounts/registration';
import { loadQuestionRows } from '../core/question-queries';
import { createCommunity, createGame, createSeries } from '../hosting/authoring';
import { addHost } from '../hosting/host-queries';
import type { AppContext } from '../platform/app-context';
import type { Queryable } from '../platform/db/database';
import { badgeImage, storeImage } from '../platform/images';
import {
  adjectives,
  animals,
  demoCommunities,
  demoZipcodes,
  type QuestionSet,
  questionSets,
} from './demo-content';
import { LIVE_SERIES } from './live-demo';
import { type Random, seededRandom } from './seeded-random';

/** A demo account anyone can log in with (README). */
export const DEMO_LOGIN = { username: 'demo_player', password: 'hunch123' } as const;
/** A demo account that hosts every demo community, so the console can be tried at once (README). */
export const DEMO_HOST = { username: 'demo_host', password: 'hunch123' } as const;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Any constant apart from the migrations' (platform/db/migrate.ts): the processes starting on one
// database take it in turn, so only the first seeds.
const SEED_LOCK = 72_410_002;

export interface SeedOptions {
  players: number;
}

/** Seeds demo content when the database has no community yet. Returns whether it seeded. */
export async function seedDemoIfEmpty(
  ctx: AppContext,
  options: SeedOptions = { players: 400 },
): Promise<boolean> {
  const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM communities');
  if (rows[0]!.n > 0) return false;
  // Images first (files, idempotent), then every row in one transaction: a crash mid-seed leaves
  // an empty database that the next start seeds again, never half a demo.
  const images = new Map<string, string>();
  for (const c of demoCommunities) {
    images.set(
      c.endpoint,
      await storeImage(
        ctx.uploadsDir,
        'communities',
        await badgeImage(c.name.replace(/^The /, ''), c.hue, 'communities'),
        `${c.endpoint}.jpg`,
      ),
    );
    images.set(
      `game:${c.endpoint}`,
      await storeImage(
        ctx.uploadsDir,
        'games',
        await badgeImage(c.name.replace(/^The /, ''), (c.hue + 40) % 360, 'games'),
        `${c.endpoint}.jpg`,
      ),
    );
  }
  for (const [k, set] of questionSets.entries()) {
    await storeImage(
      ctx.uploadsDir,
      'questions',
      await badgeImage(set.theme.slice(0, 1).toUpperCase() + set.theme.slice(1, 2), 30 + k * 55, 'questions'),
      `${set.theme}.jpg`,
    );
  }
  const demoHash = await hashPassword(DEMO_LOGIN.password);
  return ctx.db.transaction(async (tx) => {
    // Claimed as the migrations are: whoever waited here finds the content there and leaves it.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK]);
    const again = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM communities');
    if (again.rows[0]!.n > 0) return false;
    const rnd = seededRandom(20261122);
    const communityIds = new Map<string, number>();
    for (const c of demoCommunities) {
      communityIds.set(
        c.endpoint,
        await createCommunity(tx, { ...c, categories: [...c.categories], image: images.get(c.endpoint) }),
      );
    }
    const players = await seedPlayers(tx, ctx, rnd, options.players, demoHash);
    await seedMemberships(tx, rnd, players, communityIds);
    await seedGames(tx, ctx, rnd, communityIds, images);
    await seedDemoHost(tx, demoHash, [...communityIds.values()]);
    return true;
  });
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

const themeFor: Record<string, string> = {
  'the-movie-buffs': 'movies',
  'binge-watchers': 'movies',
  'the-book-club': 'books',
  'chart-toppers': 'music',
  'hoops-nation': 'sports',
  'gridiron-guessers': 'sports',
  'pitch-perfect-fc': 'sports',
  'lab-coats': 'science',
  'weather-watchers': 'science',
};

const CLASH_TEAMS = ['the-movie-buffs', 'the-book-club', 'chart-toppers', 'binge-watchers'];

/** Game windows relative to now: recent ones (complete, to be scored), an open one, upcoming ones. */
function windows(now: number) {
  return {
    recentOld: {
      open: new Date(now - 8 * DAY),
      standby: new Date(now - 6 * DAY),
      complete: new Date(now - 6 * DAY + HOUR),
    },
    recent: {
      open: new Date(now - 3 * DAY),
      standby: new Date(now - 2 * DAY),
      complete: new Date(now - 2 * DAY + HOUR),
    },
    open: {
      open: new Date(now - 6 * HOUR),
      standby: new Date(now + 2 * DAY),
      complete: new Date(now + 2 * DAY + HOUR),
    },
    upcoming: {
      open: new Date(now + DAY),
      standby: new Date(now + 3 * DAY),
      complete: new Date(now + 3 * DAY + HOUR),
    },
  };
}

async function seedGames(
  tx: Queryable,
  ctx: AppContext,
  rnd: Random,
  ids: Map<string, number>,
  images: Map<string, string>,
): Promise<void> {
  const w = windows(ctx.now().getTime());
  // Each set's opening question carries a picture (generated before the transaction, as `{theme}.jpg`).
  const setFor = (endpoint: string): QuestionSet => {
    const set = questionSets.find((s) => s.theme === (themeFor[endpoint] ?? 'general')) ?? questionSets[0]!;
    return {
      ...set,
      questions: set.questions.map((q, i) => (i === 0 ? { ...q, image: `${set.theme}.jpg` } : q)),
    };
  };
  for (const c of demoCommunities) {
    const communityId = ids.get(c.endpoint)!;
    const image = images.get(`game:${c.endpoint}`);
    if (c.endpoint === 'hunch-hq') {
      const daily = await createSeries(tx, {
        communityId,
        endpoint: 'daily-hunch',
        name: 'Daily Hunch',
        image,
        description: 'Five questions a day: vote, guess the crowd, predict the number.',
      });
      for (const [key, name] of [
        ['recentOld', 'Daily Hunch #41'],
        ['recent', 'Daily Hunch #42'],
        ['open', 'Daily Hunch #43'],
        ['upcoming', 'Daily Hunch #44'],
      ] as const) {
        const uuid = await createGame(tx, daily, {
          name,
          schedule: w[key],
          questions: setFor('general').questions,
        });
        if (key !== 'upcoming') await seedAnswers(tx, rnd, uuid, communityId, key === 'open' ? 0.3 : 0.9, []);
      }
      await createSeries(tx, {
        communityId,
        endpoint: LIVE_SERIES.endpoint,
        name: LIVE_SERIES.name,
        image,
        description: 'Live games every few minutes: join the lobby, then answer together against the clock.',
      });
      const clash = await createSeries(tx, {
        communityId,
        endpoint: 'community-clash',
        name: 'Community Clash',
        image,
        description: 'Represent your community: the best average score wins.',
      });
      const clashRecent = await createGame(tx, clash, {
        name: 'Clash: Screens vs Pages',
        schedule: w.recent,
        subcommunities: CLASH_TEAMS,
        questions: setFor('the-movie-buffs').questions,
      });
      await seedAnswers(
        tx,
        rnd,
        clashRecent,
        communityId,
        0.9,
        CLASH_TEAMS.map((e) => ids.get(e)!),
      );
      const clashOpen = await createGame(tx, clash, {
        name: 'Clash: Sound vs Story',
        schedule: w.open,
        subcommunities: CLASH_TEAMS,
        questions: setFor('chart-toppers').questions,
      });
      await seedAnswers(
        tx,
        rnd,
        clashOpen,
        communityId,
        0.3,
        CLASH_TEAMS.map((e) => ids.get(e)!),
      );
      continue;
    }
    const series = await createSeries(tx, {
      communityId,
      endpoint: 'weekly',
      name: `${c.name.replace(/^The /, '')} Weekly`,
      image,
      description: c.description,
    });
    for (const key of ['recent', 'open', 'upcoming'] as const) {
      const uuid = await createGame(tx, series, {
        schedule: w[key],
        questions: setFor(c.endpoint).questions,
      });
      if (key !== 'upcoming') await seedAnswers(tx, rnd, uuid, communityId, key === 'open' ? 0.3 : 0.85, []);
    }
  }
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
