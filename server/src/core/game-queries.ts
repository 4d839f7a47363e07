import type { Game } from '@hunch/contract';
import { AGE_BRACKETS, gameStateAt, gameStatusAt, WITHHOLDING_RULE_VERSION } from '@hunch/rules';
import type { Queryable } from '../platform/db/database';

interface GameRow {
  uuid: string;
  name: string | null;
  image: string | null;
  open_at: Date;
  standby_at: Date;
  complete_at: Date;
  synchronous: boolean;
  scored: boolean;
  series_endpoint: string;
  series_name: string;
  series_image: string;
  community_endpoint: string;
  community_name: string;
  participants: number;
  question_count: number;
  subcommunities: [string, string][] | null;
  /** Texts of the pending predict questions still without an outcome (not voided); null if none. */
  waiting_for: string[] | null;
}

const GAME_SELECT = `
  SELECT g.id::text AS uuid, g.name, g.image, g.open_at, g.standby_at, g.complete_at, g.synchronous,
         (g.scored_at IS NOT NULL) AS scored,
         s.endpoint AS series_endpoint, s.name AS series_name, s.image AS series_image,
         c.endpoint AS community_endpoint, c.name AS community_name,
         (SELECT count(*)::int FROM participations p WHERE p.game_id = g.id) AS participants,
         (SELECT count(*)::int FROM questions q WHERE q.game_id = g.id) AS question_count,
         (SELECT json_agg(json_build_array(sc.endpoint, sc.name) ORDER BY sc.name)
            FROM game_subcommunities gs JOIN communities sc ON sc.id = gs.community_id
           WHERE gs.game_id = g.id) AS subcommunities,
         (SELECT json_agg(q.text ORDER BY q.i) FROM questions q
           WHERE q.game_id = g.id AND q.outcome_kind = 'pending' AND q.outcome IS NULL AND NOT q.voided)
           AS waiting_for
    FROM games g
    JOIN series s ON s.id = g.series_id
    JOIN communities c ON c.id = s.community_id`;

function presentGame(row: GameRow, now: Date): Game {
  const schedule = {
    open: new Date(row.open_at).toISOString(),
    standby: new Date(row.standby_at).toISOString(),
    complete: new Date(row.complete_at).toISOString(),
  };
  const subcommunities = Object.fromEntries(row.subcommunities ?? []);
  const progress = { scored: row.scored, pendingOutcomes: row.waiting_for?.length ?? 0 };
  const state = gameStateAt(schedule, now, progress);
  return {
    uuid: row.uuid,
    name: row.name ?? row.series_name,
    image: row.image ?? row.series_image,
    series: { endpoint: row.series_endpoint, name: row.series_name, image: row.series_image },
    community: { endpoint: row.community_endpoint, name: row.community_name },
    schedule,
    synchronous: row.synchronous,
    state,
    status: gameStatusAt(schedule, now, progress),
    participants: row.participants,
    subcommunities,
    groups: { age: [...AGE_BRACKETS], geo: [], community: Object.keys(subcommunities) },
    question_count: row.question_count,
    // Only past complete: before it, a pending outcome is not late yet (hosting spec §3).
    waiting_for: state === 'results' ? (row.waiting_for ?? []) : [],
  };
}

/**
 * Which games: one by id, a series', a community's, or those a player may play (the games of their
 * communities, and any game they entered).
 */
export type GameFilter =
  | { uuid: string }
  | { series: number }
  | { community: number }
  | { playableBy: number };

function whereOf(filter: GameFilter): [sql: string, param: string | number] {
  if ('uuid' in filter) return ['g.id = $1::uuid', filter.uuid];
  if ('series' in filter) return ['g.series_id = $1', filter.series];
  if ('community' in filter) return ['s.community_id = $1', filter.community];
  return [
    `(s.community_id IN (SELECT community_id FROM memberships WHERE user_id = $1)
      OR g.id IN (SELECT game_id FROM participations WHERE user_id = $1))`,
    filter.playableBy,
  ];
}

/** The games matching the filter, newest schedule first. */
export async function loadGames(db: Queryable, filter: GameFilter, now: Date): Promise<Game[]> {
  const [where, param] = whereOf(filter);
  const { rows } = await db.query<GameRow>(`${GAME_SELECT} WHERE ${where} ORDER BY g.open_at DESC`, [param]);
  return rows.map((r) => presentGame(r, now));
}

/**
 * One game. A signed-in viewer of a complete game gets the statistics filters the statistics will
 * show: the groups of its statistics cache that are not withheld (decision 019), geo-groups among
 * them; everyone else the fixed brackets and the subcommunities, and no geo-groups, so no visitor
 * learns where a game's players live.
 */
export async function loadGame(
  db: Queryable,
  uuid: string,
  now: Date,
  viewerId: number | null = null,
): Promise<Game | undefined> {
  const [game] = await loadGames(db, { uuid }, now);
  if (!game || viewerId === null || game.state !== 'complete') return game;
  // The cache's layout is results-stats-cache's: rows at question_i = slot = -1 mark a withheld
  // group, and under 'all' the withholding rule it was built with; a build under an older rule
  // offers the defaults above until it is rebuilt (on the first statistics read).
  const { rows } = await db.query<{
    kind: string;
    value: string;
    name: string | null;
    endpoint: string | null;
    withheld: boolean;
    ct: number;
  }>(
    `SELECT s.group_kind AS kind, s.group_value AS value, c.name, c.endpoint,
            min(s.slot) < 0 AS withheld, max(s.ct) AS ct
       FROM question_stats_cache s
       LEFT JOIN communities c ON s.group_kind <> 'age' AND c.id::text = s.group_value
      WHERE s.game_id = $1::uuid AND (s.group_kind <> 'all' OR (s.question_i = -1 AND s.slot = -1))
      GROUP BY 1, 2, 3, 4`,
    [uuid],
  );
  if (rows.find((r) => r.kind === 'all')?.ct !== WITHHOLDING_RULE_VERSION) return game;
  const shown = (kind: string) => rows.filter((r) => r.kind === kind && !r.withheld);
  const ages = new Set(shown('age').map((r) => r.value));
  const communities = new Set(shown('community').map((r) => r.endpoint));
  game.groups = {
    age: AGE_BRACKETS.filter((b) => ages.has(b)),
    geo: shown('geo')
      .flatMap((r) => (r.name === null ? [] : [r.name]))
      .sort((a, b) => a.localeCompare(b)),
    community: game.groups.community.filter((endpoint) => communities.has(endpoint)),
  };
  return game;
}
