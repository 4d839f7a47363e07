import { gameStateAt } from '@hunch/rules';
import type { Queryable } from '../platform/db/database';
import { MARKER } from './results-stats-cache';

/** What the results calls need to know about a game; lighter than loadGame (no participant count). */
export interface ResultsGame {
  id: string;
  seriesId: number;
  /** State 'complete': the schedule reached complete and the scores are written. */
  complete: boolean;
}

export async function findResultsGame(
  db: Queryable,
  uuid: string,
  now: Date,
): Promise<ResultsGame | undefined> {
  const { rows } = await db.query<{
    id: string;
    series_id: number;
    open_at: Date;
    standby_at: Date;
    complete_at: Date;
    scored: boolean;
    pending: number;
  }>(
    `SELECT id::text AS id, series_id, open_at, standby_at, complete_at, (scored_at IS NOT NULL) AS scored,
            (SELECT count(*)::int FROM questions q WHERE q.game_id = games.id
                AND q.outcome_kind = 'pending' AND q.outcome IS NULL AND NOT q.voided) AS pending
       FROM games WHERE id = $1::uuid`,
    [uuid],
  );
  const g = rows[0];
  if (!g) return undefined;
  // The same derivation as every other call, so results open exactly when the game shows 'complete'.
  const schedule = {
    open: new Date(g.open_at),
    standby: new Date(g.standby_at),
    complete: new Date(g.complete_at),
  };
  const state = gameStateAt(schedule, now, { scored: g.scored, pendingOutcomes: g.pending });
  return { id: g.id, seriesId: g.series_id, complete: state === 'complete' };
}

// ---------------------------------------------------------------------------------------------
// Player leaderboard

export interface BoardRow {
  user_id: number;
  username: string;
  profile_img: string | null;
  is_private: boolean;
  score: number;
  rank: number;
  percentile: number;
  community_rank: number | null;
  sub: string | null;
  position: number;
}

/**
 * One page of the leaderboard: a range of stored positions, found through the board's chunks of
 * entries (migrations/014-scores-written-in-place.sql: a page is one or two of their rows).
 */
export async function leaderboardPage(
  db: Queryable,
  gameId: string,
  page: number,
  size: number,
): Promise<BoardRow[]> {
  const first = (page - 1) * size + 1;
  const { rows } = await db.query<BoardRow>(
    `SELECT p.user_id, u.username, u.profile_img, u.is_private, p.score, p.rank, p.percentile, p.community_rank,
            sc.endpoint AS sub, p.position
       FROM leaderboard_chunks b
      CROSS JOIN LATERAL unnest(b.entries) AS e (id)
       JOIN participations p ON p.id = e.id
       JOIN users u ON u.id = p.user_id
       LEFT JOIN communities sc ON sc.id = p.subcommunity_id
      WHERE b.game_id = $1 AND b.chunk BETWEEN board_chunk($2) AND board_chunk($3)
        AND p.game_id = $1 AND p.position BETWEEN $2 AND $3
      ORDER BY p.position`,
    [gameId, first, first + size - 1],
  );
  return rows;
}

/**
 * Scores of the viewer and the given players in the completed games of a series that the viewer
 * played: user id -> (game id -> score). One query for a whole page, so head-to-heads cost the
 * same for 1 row as for 50. Games the viewer did not play cannot count, so they are not read.
 */
export async function seriesScores(
  db: Queryable,
  seriesId: number,
  viewerId: number,
  userIds: readonly number[],
  now: Date,
): Promise<Map<number, Map<string, number>>> {
  const { rows } = await db.query<{ user_id: number; game_id: string; score: number }>(
    `SELECT p.user_id, p.game_id::text AS game_id, p.score
       FROM participations p
       JOIN games g ON g.id = p.game_id
      WHERE p.user_id = ANY($1::int[]) AND p.score IS NOT NULL
        AND g.series_id = $2 AND g.scored_at IS NOT NULL AND g.complete_at <= $3
        AND p.game_id IN (SELECT v.game_id FROM participations v WHERE v.user_id = $4)`,
    [[viewerId, ...userIds], seriesId, now, viewerId],
  );
  const out = new Map<number, Map<string, number>>();
  for (const r of rows) {
    const games = out.get(r.user_id) ?? new Map<string, number>();
    games.set(r.game_id, r.score);
    out.set(r.user_id, games);
  }
  return out;
}

export interface CommunityTotal {
  endpoint: string;
  name: string;
  image: string;
  /** Sum of its players' scores. */
  total: number;
  /** Number of its players. */
  c: number;
}

/**
 * Per subcommunity the sum and count of its players' scores, summed by the database: a big game
 * would otherwise ship every player's score to the server just to add them up.
 */
export async function communityTotals(db: Queryable, gameId: string): Promise<CommunityTotal[]> {
  const { rows } = await db.query<CommunityTotal>(
    `SELECT c.endpoint, c.name, c.image, sum(p.score)::float8 AS total, count(*)::int AS c
       FROM participations p JOIN communities c ON c.id = p.subcommunity_id
      WHERE p.game_id = $1 AND p.score IS NOT NULL
      GROUP BY c.id, c.endpoint, c.name, c.image`,
    [gameId],
  );
  return rows;
}

/** The viewer's place on a game's board (null: no scored entry), for 'Jump to my row'. */
export async function boardPosition(db: Queryable, gameId: string, userId: number): Promise<number | null> {
  const { rows } = await db.query<{ position: number | null }>(
    'SELECT position FROM participations WHERE game_id = $1 AND user_id = $2 AND score IS NOT NULL',
    [gameId, userId],
  );
  return rows[0]?.position ?? null;
}

/** How many players a game ranks (migrations/014-scores-written-in-place.sql board_size). */
export async function boardSize(db: Queryable, gameId: string): Promise<number> {
  const { rows } = await db.query<{ n: number | null }>('SELECT board_size($1) AS n', [gameId]);
  return rows[0]?.n ?? 0;
}

/** One player's stored result in a game ("my rank"): read through the (game_id, user_id) key. */
export async function playerResult(
  db: Queryable,
  gameId: string,
  userId: number,
): Promise<{ score: number; rank: number; percentile: number } | undefined> {
  const { rows } = await db.query<{ score: number; rank: number; percentile: number }>(
    'SELECT score, rank, percentile FROM participations WHERE game_id = $1 AND user_id = $2 AND score IS NOT NULL',
    [gameId, userId],
  );
  return rows[0];
}

// ---------------------------------------------------------------------------------------------
// Community rank

export interface CommunityRankRow {
  s: number;
  games: number;
  /** Players with a higher total, and with a lower one, among all who completed a game there. */
  higher: number;
  lower: number;
  players: number;
}

/**
 * A player's total over the scored games of a community's series, and where it stands: one row of
 * community_standings and the community's counts of players per total (migration 013, decision
 * 024), kept up to date by scoring and by leaving, so the cost does not grow with the entries.
 */
export async function communityRankRow(
  db: Queryable,
  communityId: number,
  userId: number,
): Promise<CommunityRankRow | undefined> {
  // The counts summed for the one row found, rather than joined to it and grouped: less to plan
  // and to run (on PGlite, 20,000 players: 0.10 + 0.12 ms against 0.15 + 0.21 ms).
  const { rows } = await db.query<CommunityRankRow>(
    `SELECT st.score AS s, st.games, h.higher, h.lower, h.players
       FROM community_standings st
       CROSS JOIN LATERAL (
         SELECT COALESCE(sum(players) FILTER (WHERE score > st.score), 0)::int AS higher,
                COALESCE(sum(players) FILTER (WHERE score < st.score), 0)::int AS lower,
                COALESCE(sum(players), 0)::int AS players
           FROM community_score_counts WHERE community_id = $1) h
      WHERE st.community_id = $1 AND st.user_id = $2`,
    [communityId, userId],
  );
  return rows[0];
}

export async function findPlayer(
  db: Queryable,
  username: string,
): Promise<{ id: number; is_private: boolean } | undefined> {
  const { rows } = await db.query<{ id: number; is_private: boolean }>(
    'SELECT id, is_private FROM users WHERE username_key = lower($1)',
    [username],
  );
  return rows[0];
}

// ---------------------------------------------------------------------------------------------
// Question statistics

export type GroupKind = 'age' | 'geo' | 'community';
export interface StatsGroup {
  kind: GroupKind;
  /** As stored in question_stats_cache.group_value: a bracket label or a community id. */
  value: string;
}

export async function findGeoGroup(db: Queryable, nameOrEndpoint: string): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT id FROM communities WHERE kind = 'geo' AND (endpoint = $1 OR lower(name) = lower($1))
      ORDER BY (endpoint = $1) DESC, id LIMIT 1`,
    [nameOrEndpoint],
  );
  return rows[0]?.id;
}

export async function findGameSubcommunity(
  db: Queryable,
  gameId: string,
  endpoint: string,
): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT c.id FROM game_subcommunities gs JOIN communities c ON c.id = gs.community_id
      WHERE gs.game_id = $1 AND c.endpoint = $2`,
    [gameId, endpoint],
  );
  return rows[0]?.id;
}

/** question_i -> slot -> count, for everyone and (when asked) for one group, in one query. */
export interface CachedCounts {
  all: Map<number, Map<number, number>>;
  group: Map<number, Map<number, number>>;
  /**
   * The group asked for is not one the statistics show: withheld (rules withheldGroups), or with no
   * player in the game. Both answer alike, or asking for every group would tell which ones played
   * (a minor among them, a private player's town) where the game's `groups` hides them.
   */
  groupWithheld: boolean;
}

export async function cachedCounts(
  db: Queryable,
  gameId: string,
  group: StatsGroup | null,
): Promise<CachedCounts> {
  const { rows } = await db.query<{ grp: boolean; question_i: number; slot: number; ct: number }>(
    `SELECT (group_kind <> 'all') AS grp, question_i, slot, ct FROM question_stats_cache
      WHERE game_id = $1 AND ((group_kind = 'all' AND group_value = '') OR (group_kind = $2 AND group_value = $3))`,
    [gameId, group?.kind ?? 'all', group?.value ?? ''],
  );
  const out: CachedCounts = { all: new Map(), group: new Map(), groupWithheld: false };
  let groupRows = 0;
  for (const r of rows) {
    if (r.grp) groupRows += 1;
    // Marker rows (results-stats-cache MARKER) carry no counts: a withheld group, the rule version.
    if (r.slot === MARKER) {
      if (r.grp) out.groupWithheld = true;
      continue;
    }
    const target = r.grp ? out.group : out.all;
    const slots = target.get(r.question_i) ?? new Map<number, number>();
    slots.set(r.slot, r.ct);
    target.set(r.question_i, slots);
  }
  if (group !== null && groupRows === 0) out.groupWithheld = true;
  return out;
}

export async function crowdMedians(db: Queryable, gameId: string): Promise<Map<number, number>> {
  const { rows } = await db.query<{ question_i: number; median: number }>(
    'SELECT question_i, median FROM question_stats_medians WHERE game_id = $1',
    [gameId],
  );
  return new Map(rows.map((r) => [r.question_i, r.median]));
}

// Built by the scoring step (or the first reader); re-exported so callers find it with the queries.
export { buildStatsCache } from './results-stats-cache';
