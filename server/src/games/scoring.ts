import { liveScheduleOf, loadQuestionRows } from '../core/question-queries';
import type { Db, Queryable } from '../platform/db/database';
import { gameCommunity, lockStandings } from './community-standings';
import { answerPoints, type GameScoring } from './scoring-answers';
import { planNeeds, planQuestions } from './scoring-plan';
import { writeScores } from './scoring-sql';

/** How each question of a game scores (scoring-plan.ts), once its answers' aggregates are counted. */
async function gameScoring(tx: Queryable, gameId: string): Promise<GameScoring> {
  const game = (
    await tx.query<{ speed: boolean; standby_at: Date }>(
      'SELECT (synchronous AND speed_bonus) AS speed, standby_at FROM games WHERE id = $1',
      [gameId],
    )
  ).rows[0]!;
  const questions = await loadQuestionRows(tx, gameId);
  const schedule = game.speed ? liveScheduleOf(new Date(game.standby_at).getTime(), questions) : null;
  return {
    shape: planQuestions(questions, new Map(), new Map(), schedule),
    needs: planNeeds(questions),
    plan: ({ counts, medians }) => planQuestions(questions, counts, medians, schedule),
    speed: game.speed,
  };
}

/**
 * Scores a game (DESIGN §2), set-based (decisions 024, 043): a plan per question from the game's
 * choice counts and crowd medians, then one statement over all of it writes the scores, ranks,
 * percentiles, community ranks and positions, and moves the community standings along. Returns
 * the number of entries.
 */
async function score(tx: Queryable, gameId: string, answersRead?: () => void): Promise<number> {
  // Sorts and hashes over a big game's entries stay in memory (a million entries: the aggregate
  // 131-180 MB, each sort 80-95 MB), and no time goes into compiling the statements (JIT took
  // longer than running them): for this transaction only.
  await tx.exec("SET LOCAL work_mem = '256MB'; SET LOCAL jit = off");
  // Before any score changes: whoever else moves this community's standings waits, or is waited for.
  const communityId = await gameCommunity(tx, gameId);
  await lockStandings(tx, communityId);
  return writeScores(tx, gameId, await gameScoring(tx, gameId), communityId, answersRead);
}

/** The points of each answer of a game as scoring counts them (they are not stored). */
export async function gameAnswerPoints(
  db: Db,
  gameId: string,
): Promise<{ participation_id: number; question_i: number; points: number }[]> {
  // Its own transaction: the answers are read into a temporary table that lasts until it ends.
  return db.transaction(async (tx) => answerPoints(tx, gameId, await gameScoring(tx, gameId)));
}

/**
 * Scores a scored game again, inside the caller's transaction: after a host corrects an outcome or
 * voids a question (hosting spec §3), points, scores, ranks, percentiles and community ranks change
 * together. The caller holds the game's row lock, so two corrections never interleave.
 */
export async function rescoreGame(tx: Queryable, gameId: string, after?: AfterScoring): Promise<void> {
  await score(tx, gameId);
  if (after) await after(tx, gameId);
}

/** Extra work done inside the scoring transaction (the clock's 'complete' event, statistics built again). */
export type AfterScoring = (tx: Queryable, gameId: string) => Promise<void>;

/**
 * A game's statistics as scoring runs them (the results feature's, composed in app/). They count
 * the answers by group and never read an outcome or a score (decision 042), so they are built once
 * a game's answers are final, beside its scoring, and built again only when its entries change.
 */
export interface GameStatistics {
  /** Built again inside the caller's transaction, if any were built: the entries changed (a player left). */
  rebuild: AfterScoring;
  /**
   * Built in a transaction of its own, unless built already or the game's schedule is not complete
   * by `now` (its answers not final). Reports its own failures: readers build them on first use.
   */
  ensure: (db: Db, gameId: string, now: Date) => Promise<void>;
}

/**
 * Scores a game due for scoring (scoreGame) while its statistics are built on a second connection
 * (decision 042). They start once scoring has read the answers (decision 043): its reading passes
 * run on both cores, its writing statement on one, so the statistics take the other core then
 * rather than slow the reads. PGlite, one connection, runs them after the scoring. Resolves once
 * both are done, with whether this call did the scoring.
 */
export async function scoreGameWithStatistics(
  db: Db,
  gameId: string,
  now: Date,
  statistics: GameStatistics,
  after?: AfterScoring,
): Promise<boolean> {
  let start = () => {};
  const built = new Promise<void>((resolve) => {
    start = resolve;
  }).then(() => statistics.ensure(db, gameId, now));
  // A game this call does not score, or whose scoring fails, gets its statistics built all the same.
  const scoring = scoreGame(db, gameId, now, after, start).finally(start);
  const [scored] = await Promise.allSettled([scoring, built]);
  if (scored.status === 'rejected') throw scored.reason;
  return scored.value;
}

/**
 * A predict question whose outcome a host enters after standby ('pending', hosting spec §3) holds
 * its game in 'results' until it is entered or the question voided: such a game is not due.
 */
const NO_PENDING_OUTCOME = `NOT EXISTS (SELECT 1 FROM questions q WHERE q.game_id = games.id
  AND q.outcome_kind = 'pending' AND q.outcome IS NULL AND NOT q.voided)`;

/**
 * Scores a game whose schedule has reached `complete`, exactly once across every process: the
 * first statement flips `scored_at` with a conditional UPDATE, whose row lock makes any racing
 * process wait and then find nothing to do; all scores are written in the same transaction, so a
 * crash leaves the game unscored (state 'results') and the next tick scores it again.
 * `answersRead` is called once the answers are read, before the scores are written.
 * Returns whether this call did the scoring.
 */
export async function scoreGame(
  db: Db,
  gameId: string,
  now: Date,
  after?: AfterScoring,
  answersRead?: () => void,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const claim = await tx.query(
      `UPDATE games SET scored_at = $2, scoring_claimed_at = $2
        WHERE id = $1 AND scored_at IS NULL AND complete_at <= $2 AND ${NO_PENDING_OUTCOME} RETURNING id`,
      [gameId, now],
    );
    if (claim.rows.length === 0) return false;
    await score(tx, gameId, answersRead);
    if (after) await after(tx, gameId);
    return true;
  });
}

/** Ids of games whose schedule reached `complete` but are not scored yet (and wait for no outcome). */
export async function gamesDueForScoring(db: Queryable, now: Date): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id::text AS id FROM games WHERE scored_at IS NULL AND complete_at <= $1 AND ${NO_PENDING_OUTCOME}
      ORDER BY complete_at LIMIT 50`,
    [now],
  );
  return rows.map((r) => r.id);
}

/** Games whose entries changed since they were scored (a player left), 50 a pass. */
export async function gamesDueForRescoring(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT game_id::text AS id FROM rescores_due ORDER BY game_id LIMIT 50',
  );
  return rows.map((r) => r.id);
}

/**
 * Scores a game again whose entries changed since it was scored (rescores_due), once across every
 * process. The game's row lock comes first, as for its first scoring and a correction, so none of
 * them interleave; the row is deleted last, and only if no leave has come since it was read (a
 * leave meanwhile bumps its round, and the next tick scores again). A game not scored yet is not
 * scored: its first scoring reads what changed (`after` still runs: statistics may be built).
 * Returns whether it was scored again.
 */
export async function rescoreIfDue(db: Db, gameId: string, after?: AfterScoring): Promise<boolean> {
  return db.transaction(async (tx) => {
    const game = await tx.query<{ scored: boolean }>(
      'SELECT scored_at IS NOT NULL AS scored FROM games WHERE id = $1 FOR UPDATE',
      [gameId],
    );
    const due = await tx.query<{ round: number }>('SELECT round FROM rescores_due WHERE game_id = $1', [
      gameId,
    ]);
    if (due.rows.length === 0) return false;
    const scored = game.rows[0]?.scored === true;
    if (scored) await rescoreGame(tx, gameId, after);
    // Statistics built beside a scoring that did not land (decision 042) count the entries too.
    else await after?.(tx, gameId);
    await tx.query('DELETE FROM rescores_due WHERE game_id = $1 AND round = $2', [
      gameId,
      due.rows[0]!.round,
    ]);
    return scored;
  });
}
