/**
 * The clock of a live game, computed from its start time and question lengths alone. Every server
 * process (and the browser) derives the same phase from the same stored start, so a process that
 * takes over a game after another died carries on exactly where the timeline says it is.
 */
export const LIVE_COUNTDOWN_MS = 5_000;
/** Pause after a question closes, before the next one (or the end). */
export const LIVE_GAP_MS = 4_000;

export type LivePhase =
  | { kind: 'lobby' }
  | { kind: 'countdown'; endsAt: number }
  | { kind: 'question'; i: number; askedAt: number; deadline: number }
  | { kind: 'between'; i: number; nextAt: number }
  | { kind: 'complete'; at: number };

export interface LiveSchedule {
  /** When the game starts (schedule.standby), ms since the epoch. */
  startAt: number;
  /** Seconds to answer, per question in order. */
  secs: readonly number[];
}

/** When question i is asked, ms since the epoch. */
export function askedAt(s: LiveSchedule, i: number): number {
  let t = s.startAt + LIVE_COUNTDOWN_MS;
  for (let j = 0; j < i; j++) t += (s.secs[j] ?? 0) * 1000 + LIVE_GAP_MS;
  return t;
}

export function deadlineOf(s: LiveSchedule, i: number): number {
  return askedAt(s, i) + (s.secs[i] ?? 0) * 1000;
}

/** When the live game is over: the last question's gap has passed. */
export function liveEndsAt(s: LiveSchedule): number {
  return s.secs.length === 0 ? s.startAt + LIVE_COUNTDOWN_MS : deadlineOf(s, s.secs.length - 1) + LIVE_GAP_MS;
}

export function livePhaseAt(s: LiveSchedule, now: number): LivePhase {
  if (now < s.startAt) return { kind: 'lobby' };
  if (now < s.startAt + LIVE_COUNTDOWN_MS)
    return { kind: 'countdown', endsAt: s.startAt + LIVE_COUNTDOWN_MS };
  for (let i = 0; i < s.secs.length; i++) {
    const asked = askedAt(s, i);
    const deadline = deadlineOf(s, i);
    if (now < deadline) return { kind: 'question', i, askedAt: asked, deadline };
    if (now < deadline + LIVE_GAP_MS && i < s.secs.length - 1)
      return { kind: 'between', i, nextAt: deadline + LIVE_GAP_MS };
  }
  return { kind: 'complete', at: liveEndsAt(s) };
}

/** When a phase ends: the countdown's end, a question's deadline, the next question; 0 for the lobby and the end. */
export function phaseEndsAt(phase: LivePhase): number {
  switch (phase.kind) {
    case 'countdown':
      return phase.endsAt;
    case 'question':
      return phase.deadline;
    case 'between':
      return phase.nextAt;
    default:
      return 0;
  }
}

/**
 * The steps a driver announces, in order: 0 = game start and countdown, 1..n = question i-1,
 * n+1 = complete. `stepAt` is when each is due.
 */
export function stepAt(s: LiveSchedule, step: number): number {
  if (step === 0) return s.startAt;
  if (step <= s.secs.length) return askedAt(s, step - 1);
  return liveEndsAt(s);
}

/** The last step due at `now` (-1 before the start). */
export function stepDue(s: LiveSchedule, now: number): number {
  let step = -1;
  for (let k = 0; k <= s.secs.length + 1; k++) if (stepAt(s, k) <= now) step = k;
  return step;
}

/** Whole seconds of the countdown left at `now` (rounded: a start announced on time says 5). */
export function countdownSecs(s: LiveSchedule, now: number): number {
  return Math.max(0, Math.round((s.startAt + LIVE_COUNTDOWN_MS - now) / 1000));
}

/** How many questions have been asked by `now`: a live game's later questions stay secret until then. */
export function questionsAskedBy(s: LiveSchedule, now: number): number {
  return Math.min(Math.max(stepDue(s, now), 0), s.secs.length);
}

/**
 * Whether an answer to question i received at `receivedAt` counts: after the question was asked
 * and before its deadline, allowing for the player's one-way network delay (capped, so a client
 * cannot claim a long delay to answer late).
 */
export const MAX_LATENCY_ALLOWANCE_MS = 500;
export function answerInTime(s: LiveSchedule, i: number, receivedAt: number, oneWayDelayMs: number): boolean {
  if (i < 0 || i >= s.secs.length) return false;
  return receivedAt >= askedAt(s, i) && answeredAt(receivedAt, oneWayDelayMs) <= deadlineOf(s, i);
}

/**
 * When the player answered, by the server's clock: the moment the answer arrived less the player's
 * one-way network delay (capped, as for the deadline). The speed bonus is measured from it.
 */
export function answeredAt(receivedAt: number, oneWayDelayMs: number): number {
  return receivedAt - Math.min(Math.max(0, oneWayDelayMs), MAX_LATENCY_ALLOWANCE_MS);
}

/**
 * With a game's speed bonus switched on, the last tenth of a question's points depends on speed:
 * an answer at the start keeps all its points, one at the deadline keeps 90 %. Points stay within
 * the 100 a question is worth.
 */
export function withSpeedBonus(points: number, s: LiveSchedule, i: number, answeredAt: number): number {
  const window = (s.secs[i] ?? 0) * 1000;
  if (window <= 0) return points;
  const left = Math.min(1, Math.max(0, (deadlineOf(s, i) - answeredAt) / window));
  return Math.round(points * (0.9 + 0.1 * left));
}
