import type { LiveStanding, QuestionOutcome, QuestionResultEvent } from '@hunch/contract';
import {
  deadlineOf,
  guessPoints,
  guessTruth,
  type LivePhase,
  type LiveSchedule,
  MAX_LATENCY_ALLOWANCE_MS,
  predictPoints,
  predictTruthCrowd,
  votePoints,
  withSpeedBonus,
} from '@hunch/rules';
import { loadQuestionRows, type QuestionRow } from '../core/question-queries';
import type { Queryable } from '../platform/db/database';

// A live question's result (issue 27): the right answer, and each player's points, running score
// and rank, worked out by each server process for its own players with the rules functions that
// scoring uses (DESIGN §2), from the answers stored by the time the question closed.

/**
 * After a question's deadline: the latency allowance (an answer may still arrive and count that
 * long after it), then a moment for the answers accepted last to be stored, here and on other
 * processes (a batch waits at most a few ms before its statement).
 */
export const RESULT_SETTLE_MS = 300;

/** When question i's result goes out: no answer to it can count any more. */
export function resultAt(s: LiveSchedule, i: number): number {
  return deadlineOf(s, i) + MAX_LATENCY_ALLOWANCE_MS + RESULT_SETTLE_MS;
}

/** The last question whose result is due at `now` (-1: none yet). */
export function lastResultDue(s: LiveSchedule, now: number): number {
  let due = -1;
  for (let i = 0; i < s.secs.length && resultAt(s, i) <= now; i++) due = i;
  return due;
}

/** A question's result as computed once per process: the common part and every player's standing. */
export interface ComputedResult {
  outcome: QuestionOutcome;
  /** participation id -> standing. */
  standings: Map<number, LiveStanding>;
  /** The standing of a player who entered after it was computed: no points, score 0. */
  newcomer: LiveStanding;
  /** The game's last question. */
  last: boolean;
}

/** One game's tally in this process: the scores through the last question folded in. */
export interface Tally {
  through: number;
  scores: Map<number, number>;
  /** Choice counts per closed question (a linked guess reads its vote's). */
  counts: Map<number, number[]>;
  results: Map<number, ComputedResult>;
  /** The computation in progress: one at a time per game. */
  work: Promise<unknown>;
  touched: number;
}

export interface AnswerRow {
  pid: number;
  choice_i: number | null;
  number_answer: number | null;
  at: number;
}

export const newTally = (touched: number): Tally => ({
  through: -1,
  scores: new Map(),
  counts: new Map(),
  results: new Map(),
  work: Promise.resolve(),
  touched,
});

/** Games whose tally was not used for this long are forgotten. */
const FORGET_AFTER_MS = 15 * 60_000;

/** A question's points for each answer (null: known later) and its outcome without the player count. */
export function scoreQuestion(
  q: QuestionRow,
  questions: readonly QuestionRow[],
  answers: readonly AnswerRow[],
  tally: Tally,
  speed: LiveSchedule | null,
): { outcome: Omit<QuestionOutcome, 'players'>; points: Map<number, number> | null } {
  const counts = q.choices.map(() => 0);
  const numbers: number[] = [];
  for (const a of answers) {
    if (a.choice_i !== null && a.choice_i >= 0 && a.choice_i < counts.length) counts[a.choice_i]! += 1;
    if (a.number_answer !== null) numbers.push(a.number_answer);
  }
  tally.counts.set(q.i, counts);
  const base = { i: q.i, type: q.kind, answered: answers.length, ...(q.voided && { voided: true as const }) };
  const later = { ...base, split: null, top_choices: [], truth: null, later: true };
  const pointsBy = (of: (a: AnswerRow) => number) => {
    const points = new Map<number, number>();
    for (const a of answers) {
      const p = q.voided ? 0 : of(a);
      points.set(a.pid, speed ? withSpeedBonus(p, speed, q.i, a.at) : p);
    }
    return points;
  };
  if (q.kind === 'vote') {
    // Its split is a later linked guess's answer: held back until that guess has closed.
    const decidesLater = questions.some((g) => g.kind === 'guess' && g.linked_vote_i === q.i && g.i > q.i);
    const points = pointsBy(() => votePoints());
    if (decidesLater) return { outcome: later, points };
    const split = { of: 'votes' as const, counts };
    return {
      outcome: { ...base, split, top_choices: guessTruth(counts), truth: null, later: false },
      points,
    };
  }
  if (q.kind === 'guess') {
    const linked = q.linked_vote_i;
    if (linked !== null && linked > q.i) return { outcome: later, points: null };
    const decisive = linked !== null ? tally.counts.get(linked) : counts;
    if (!decisive) return { outcome: later, points: null };
    const split = { of: linked !== null ? ('votes' as const) : ('guesses' as const), counts: decisive };
    return {
      outcome: { ...base, split, top_choices: guessTruth(decisive), truth: null, later: false },
      points: pointsBy((a) => (a.choice_i === null ? 0 : guessPoints(a.choice_i, decisive))),
    };
  }
  // A predict: the host's outcome, else (a crowd question) the median; a pending one comes later.
  const truth = q.outcome ?? (q.outcome_kind === 'pending' ? null : predictTruthCrowd(numbers));
  if (truth === null) {
    if (q.outcome_kind === 'pending') return { outcome: later, points: null };
    return {
      outcome: { ...base, split: null, top_choices: [], truth: null, later: false },
      points: new Map(),
    };
  }
  const slider = { min: q.slider_min ?? 0, max: q.slider_max ?? 0 };
  return {
    outcome: { ...base, split: null, top_choices: [], truth, later: false },
    points: pointsBy((a) => (a.number_answer === null ? 0 : predictPoints(a.number_answer, truth, slider))),
  };
}

/**
 * Live questions' results, per process: computed once per question from the stored answers, in
 * question order (a running score adds each question's points to the last), and kept for the
 * players' events and their reconnections.
 */
export class QuestionResults {
  private tallies = new Map<string, Tally>();

  constructor(
    private readonly db: Queryable,
    private readonly now: () => number = Date.now,
  ) {}

  /** Question i's result (it must have closed: see resultAt). */
  get(gameId: string, schedule: LiveSchedule, i: number): Promise<ComputedResult> {
    const t = this.now();
    for (const [id, tally] of this.tallies)
      if (id !== gameId && t - tally.touched > FORGET_AFTER_MS) this.tallies.delete(id);
    let tally = this.tallies.get(gameId);
    if (!tally) {
      tally = newTally(t);
      this.tallies.set(gameId, tally);
    }
    tally.touched = t;
    const known = tally.results.get(i);
    if (known) return Promise.resolve(known);
    const own = tally;
    // An earlier question than the last one folded in (asked for by nobody but a slow
    // reconnection) is worked out on a tally of its own.
    const run = own.work
      .catch(() => undefined)
      .then(
        () => own.results.get(i) ?? this.advance(gameId, schedule, own.through < i ? own : newTally(t), i),
      );
    own.work = run;
    return run;
  }

  /** The latest result out by now (null: none yet); computed once per process, so usually at hand. */
  async latest(gameId: string, schedule: LiveSchedule): Promise<ComputedResult | null> {
    const due = lastResultDue(schedule, this.now());
    return due < 0 ? null : this.get(gameId, schedule, due);
  }

  /**
   * What a (re)connection's resume carries in `phase`: the result of the question that just closed,
   * or of the last one once the game is over; null when it is not out yet.
   */
  resumeEvent(result: ComputedResult, phase: LivePhase, participationId: number | null) {
    const { i } = result.outcome;
    const current = phase.kind === 'between' ? i === phase.i : phase.kind === 'complete' && result.last;
    return current ? this.eventFor(result, participationId) : null;
  }

  /** The player's event: the outcome, with their standing when they are in the game. */
  eventFor(result: ComputedResult, participationId: number | null): QuestionResultEvent {
    const you = participationId === null ? null : (result.standings.get(participationId) ?? result.newcomer);
    return { ...result.outcome, you };
  }

  /** Folds questions through+1..i into the tally; returns i's result. */
  private async advance(
    gameId: string,
    schedule: LiveSchedule,
    tally: Tally,
    i: number,
  ): Promise<ComputedResult> {
    const questions = await loadQuestionRows(this.db, gameId);
    const { rows: games } = await this.db.query<{ speed: boolean; players: number }>(
      `SELECT (g.synchronous AND g.speed_bonus) AS speed,
              (SELECT count(*)::int FROM participations p WHERE p.game_id = g.id) AS players
         FROM games g WHERE g.id = $1`,
      [gameId],
    );
    const game = games[0];
    if (!game) throw new Error(`no game ${gameId}`);
    let result: ComputedResult | undefined;
    for (let j = tally.through + 1; j <= i; j++) {
      const q = questions.find((x) => x.i === j);
      if (!q) throw new Error(`game ${gameId} has no question ${j}`);
      const { rows } = await this.db.query<AnswerRow>(
        `SELECT a.participation_id AS pid, a.choice_i, a.number_answer,
                floor(extract(epoch FROM a.answered_at) * 1000)::float8 AS at
           FROM answers a JOIN participations p ON p.id = a.participation_id
          WHERE p.game_id = $1 AND a.question_i = $2`,
        [gameId, j],
      );
      const { outcome, points } = scoreQuestion(q, questions, rows, tally, game.speed ? schedule : null);
      // Everyone who answered stands in the ranking, even while their points are to come.
      for (const a of rows) if (!tally.scores.has(a.pid)) tally.scores.set(a.pid, 0);
      for (const [pid, p] of points ?? []) tally.scores.set(pid, tally.scores.get(pid)! + p);
      tally.through = j;
      // Standings are kept for the latest question only: nobody asks for an earlier one.
      if (j < i) continue;
      const players = Math.max(game.players, tally.scores.size);
      result = this.standings({ ...outcome, players }, tally, points, rows, j === questions.length - 1);
      tally.results.clear();
      tally.results.set(j, result);
    }
    if (!result) throw new Error(`question ${i} of game ${gameId} was not computed`);
    return result;
  }

  /** Ranks every player by running score (1, 2, 2, 4): each rank is 1 + the number of higher scores. */
  private standings(
    outcome: QuestionOutcome,
    tally: Tally,
    points: Map<number, number> | null,
    answers: readonly AnswerRow[],
    last: boolean,
  ): ComputedResult {
    const answerOf = new Map(answers.map((a) => [a.pid, a]));
    const sorted = [...tally.scores.values()].sort((a, b) => b - a);
    const rankOf = new Map<number, number>();
    sorted.forEach((s, k) => {
      if (!rankOf.has(s)) rankOf.set(s, k + 1);
    });
    const zeroRank = (() => {
      let higher = 0;
      for (const s of sorted) if (s > 0) higher++;
      return higher + 1;
    })();
    const standings = new Map<number, LiveStanding>();
    for (const [pid, score] of tally.scores) {
      const a = answerOf.get(pid);
      standings.set(pid, {
        answer: a ? { question_i: outcome.i, choice_i: a.choice_i, number_answer: a.number_answer } : null,
        points: points === null ? null : (points.get(pid) ?? 0),
        score,
        rank: rankOf.get(score) ?? zeroRank,
      });
    }
    const newcomer = { answer: null, points: points === null ? null : 0, score: 0, rank: zeroRank };
    return { outcome, standings, newcomer, last };
  }
}
