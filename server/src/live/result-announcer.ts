import type { LiveSchedule } from '@hunch/rules';
import type { SlicedBroadcaster } from './live-broadcast';
import type { LiveScheduleCache } from './live-schedule';
import { type ComputedResult, lastResultDue, type QuestionResults, resultAt } from './question-results';

/** Before the start a host may still move a game: its timer looks again at least this often. */
const RECHECK_BEFORE_START_MS = 2_000;

interface Watched {
  timer?: NodeJS.Timeout;
  /** The last question whose result was sent (or was already out when watching began). */
  announced: number;
}

export interface AnnouncerDeps {
  /** The game's live schedule (undefined: no such live game). */
  schedule(gameId: string): Promise<LiveSchedule | undefined>;
  result(gameId: string, schedule: LiveSchedule, i: number): Promise<ComputedResult>;
  /** Whether anybody here plays the game (nobody: it is forgotten until somebody connects again). */
  playsHere(gameId: string): boolean;
  /** Sends a result to this process's players of the game; how many it reached. */
  send(gameId: string, result: ComputedResult): Promise<number>;
  now(): number;
  onError(gameId: string, i: number, err: unknown): void;
}

/**
 * Sends each live question's result to this process's players when it falls due (resultAt): every
 * process its own players, on the game's stored clock, so none depends on another. A game is
 * watched from its first player's connection here until its last result, or until nobody here
 * plays it any more.
 */
export class ResultAnnouncer {
  private watched = new Map<string, Watched>();
  private stopped = false;

  constructor(private readonly deps: AnnouncerDeps) {}

  /** A player of the game connected here: its results are sent from now on. */
  watch(gameId: string): void {
    if (this.stopped || this.watched.has(gameId)) return;
    const w: Watched = { announced: Number.POSITIVE_INFINITY };
    this.watched.set(gameId, w);
    void this.deps
      .schedule(gameId)
      .then((s) => {
        if (!s) return this.forget(gameId, w);
        // Results already out are not sent again: a (re)connecting player gets the last one in
        // their resume.
        w.announced = lastResultDue(s, this.deps.now());
        this.arm(gameId, w, s);
      })
      .catch(() => this.forget(gameId, w));
  }

  stop(): void {
    this.stopped = true;
    for (const w of this.watched.values()) clearTimeout(w.timer);
    this.watched.clear();
  }

  private forget(gameId: string, w: Watched): void {
    clearTimeout(w.timer);
    if (this.watched.get(gameId) === w) this.watched.delete(gameId);
  }

  private arm(gameId: string, w: Watched, s: LiveSchedule): void {
    if (this.watched.get(gameId) !== w) return;
    const next = w.announced + 1;
    if (next >= s.secs.length) {
      this.forget(gameId, w);
      return;
    }
    const now = this.deps.now();
    let delay = Math.max(0, resultAt(s, next) - now);
    if (now < s.startAt) delay = Math.min(delay, RECHECK_BEFORE_START_MS);
    clearTimeout(w.timer);
    w.timer = setTimeout(() => void this.due(gameId, w), delay);
    w.timer.unref();
  }

  private async due(gameId: string, w: Watched): Promise<void> {
    if (this.watched.get(gameId) !== w) return;
    if (!this.deps.playsHere(gameId)) return this.forget(gameId, w);
    const s = await this.deps.schedule(gameId).catch(() => undefined);
    if (!s) return this.forget(gameId, w);
    const due = lastResultDue(s, this.deps.now());
    if (due > w.announced) {
      // Only the latest: a timer that ran late does not send a result already overtaken.
      w.announced = due;
      try {
        const result = await this.deps.result(gameId, s, due);
        if ((await this.deps.send(gameId, result)) === 0) return this.forget(gameId, w);
      } catch (err) {
        this.deps.onError(gameId, due, err);
      }
    }
    this.arm(gameId, w, s);
  }
}

/** The announcer of a process's live namespace: results sent through its broadcaster, each socket its own. */
export function resultAnnouncer(
  schedules: LiveScheduleCache,
  results: QuestionResults,
  broadcaster: SlicedBroadcaster,
  now: () => number,
  log: { warn(message: string): void },
): ResultAnnouncer {
  return new ResultAnnouncer({
    schedule: async (gameId) => (await schedules.get(gameId))?.schedule,
    result: (gameId, schedule, i) => results.get(gameId, schedule, i),
    playsHere: (gameId) => broadcaster.playersHere(`/game/${gameId}`) > 0,
    // Each their own points, score and rank (participationId null: watching).
    send: (gameId, r) =>
      broadcaster.sendEach<{ data: { participationId: number | null } }>(
        gameId,
        `/game/${gameId}`,
        `question_result ${r.outcome.i}`,
        (s) => ['question_result', results.eventFor(r, s.data.participationId)],
      ),
    now,
    onError: (gameId, i, err) =>
      log.warn(`live: the result of question ${i} of game ${gameId} could not be sent: ${err}`),
  });
}
