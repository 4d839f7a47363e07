import {
  type CommunityRank,
  type CommunityRow,
  LEADERBOARD_PAGE_SIZE,
  type PlayerRow,
  type QuestionItem,
  type QuestionStats,
  type statsQuerySchema,
} from '@hunch/contract';
import { AGE_BRACKETS } from '@hunch/rules';
import type { z } from 'zod';
import { loadQuestionRows } from '../core/question-queries';
import type { Db, Queryable } from '../platform/db/database';
import { HttpError } from '../platform/http/http-error';
import {
  presentCommunityRank,
  presentCommunityRows,
  presentPlayerRows,
  presentQuestionStats,
} from './results-present';
import {
  boardPosition,
  cachedCounts,
  communityRankRow,
  communityTotals,
  crowdMedians,
  findGameSubcommunity,
  findGeoGroup,
  leaderboardPage,
  type ResultsGame,
  type StatsGroup,
  seriesScores,
} from './results-queries';
import { ensureStatsCache } from './results-stats-cache';

// What each results call answers, from the queries and the presenters, without HTTP: the routes
// call these after checking who asks, and the benchmark times exactly the same work.

/** One page of the player leaderboard with head-to-heads against the viewer; {} past the end. */
export async function playerBoard(
  db: Queryable,
  game: ResultsGame,
  viewerId: number,
  page: number,
  now: Date,
): Promise<Record<string, PlayerRow>> {
  const rows = await leaderboardPage(db, game.id, page, LEADERBOARD_PAGE_SIZE);
  if (rows.length === 0) return {};
  const scores = await seriesScores(
    db,
    game.seriesId,
    viewerId,
    rows.map((r) => r.user_id),
    now,
  );
  return presentPlayerRows(rows, viewerId, scores);
}

/** The leaderboard page that holds the viewer's row (pages start at 1); 404 without a row. */
export async function viewerPage(db: Queryable, game: ResultsGame, viewerId: number): Promise<number> {
  const position = await boardPosition(db, game.id, viewerId);
  if (position === null) throw new HttpError(404, 'You have no row on this leaderboard: you did not play');
  return Math.ceil(position / LEADERBOARD_PAGE_SIZE);
}

/**
 * The community leaderboard. A game has a handful of subcommunities, so page 1 holds them all and
 * later pages are empty, which ends the client's infinite scroll.
 */
export async function communityBoard(
  db: Queryable,
  game: ResultsGame,
  page: number,
): Promise<Record<string, CommunityRow>> {
  if (page > 1) return {};
  return presentCommunityRows(await communityTotals(db, game.id));
}

type StatsFilters = z.infer<typeof statsQuerySchema>;

/**
 * The one statistics group the filters name, or null for everyone; 400 for a value that names no
 * group of this game. Groups are precomputed one at a time, so combining filters is refused.
 */
export async function statsGroup(
  db: Queryable,
  game: ResultsGame,
  filters: StatsFilters,
): Promise<StatsGroup | null> {
  const given = (['age', 'geo', 'community'] as const).filter((k) => (filters[k] ?? '') !== '');
  if (given.length > 1) throw new HttpError(400, 'Filter by one group at a time: age, geo or community');
  const kind = given[0];
  if (kind === undefined) return null;
  const value = filters[kind]!;
  if (kind === 'age') {
    // A raw '+' in a query string decodes to a space ('65+' -> '65 '), and DESIGN writes en dashes.
    const label = value.replace(/ /g, '+').replace(/\u2013/g, '-');
    const bracket = AGE_BRACKETS.find((b) => b === label);
    if (!bracket) throw new HttpError(400, `Unknown age group: ${value} (one of ${AGE_BRACKETS.join(', ')})`);
    return { kind, value: bracket };
  }
  if (kind === 'geo') {
    const id = await findGeoGroup(db, value);
    if (id === undefined) throw new HttpError(400, `Unknown geo-group: ${value}`);
    return { kind, value: String(id) };
  }
  const id = await findGameSubcommunity(db, game.id, value);
  if (id === undefined) throw new HttpError(400, `This game has no community group ${value}`);
  return { kind, value: String(id) };
}

/** Questions and their statistics, read from the per-game cache (built on first use if missing). */
export async function questionStats(
  db: Db,
  game: ResultsGame,
  group: StatsGroup | null,
): Promise<{ questions: QuestionItem[]; stats: QuestionStats[] }> {
  await ensureStatsCache(db, game.id);
  const [questions, counts, medians] = await Promise.all([
    loadQuestionRows(db, game.id),
    cachedCounts(db, game.id, group),
    crowdMedians(db, game.id),
  ]);
  return presentQuestionStats(questions, counts, group !== null, medians);
}

/** A player's community rank: total, mean per game, rank and percentile among its players. */
export async function communityRank(
  db: Queryable,
  communityId: number,
  userId: number,
): Promise<CommunityRank> {
  return presentCommunityRank(await communityRankRow(db, communityId, userId));
}
