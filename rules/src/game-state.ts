import type { GameState, GameStatus } from '@hunch/contract';
import { COUNTDOWN_THRESHOLD_S } from '@hunch/contract';

/** A point in time as stored (ISO string) or already parsed. */
export type Instant = string | Date;

export interface ScheduleInput {
  open: Instant;
  standby: Instant;
  complete: Instant;
}

const DAY_MS = 86_400_000;

/** A complete game is listed as 'recent' for this long after schedule.complete, then as 'past'. */
export const RECENT_WINDOW_MS = 7 * DAY_MS;

function toMs(t: Instant): number {
  const ms = typeof t === 'string' ? Date.parse(t) : t.getTime();
  // A bad timestamp would silently make every comparison false; fail loudly instead.
  if (Number.isNaN(ms)) throw new RangeError(`Invalid time: ${String(t)}`);
  return ms;
}

function boundaries(schedule: ScheduleInput): [number, number, number] {
  return [toMs(schedule.open), toMs(schedule.standby), toMs(schedule.complete)];
}

/** Where a game's scoring stands, as stored. */
export interface ScoringProgress {
  /** The scores are written (games.scored_at). */
  scored: boolean;
  /**
   * Outcomes a host still owes: predict questions whose outcome is 'pending', not entered yet and
   * not voided (hosting spec §3).
   */
  pendingOutcomes: number;
}

/**
 * The game's state at `now`. Derived only from the schedule and the stored scoring progress, so
 * every process computes the same answer. The progress matters only once the clock has reached
 * schedule.complete: before that the clock alone decides. From then on a game is 'complete' once
 * scored with no outcome pending; while any is pending it stays in 'results', whatever `scored`
 * says, so nobody sees final results a host has still to settle.
 */
export function gameStateAt(schedule: ScheduleInput, now: Date, progress: ScoringProgress): GameState {
  const [open, standby, complete] = boundaries(schedule);
  const t = toMs(now);
  if (t < open) return 'closed';
  if (t < standby) return 'open';
  if (t < complete) return 'standby';
  return progress.scored && progress.pendingOutcomes === 0 ? 'complete' : 'results';
}

/** Which list a game belongs to: upcoming, ongoing (open/standby/results), recent or past. */
export function gameStatusAt(schedule: ScheduleInput, now: Date, progress: ScoringProgress): GameStatus {
  const state = gameStateAt(schedule, now, progress);
  switch (state) {
    case 'closed':
      return 'upcoming';
    case 'open':
    case 'standby':
    case 'results':
      return 'ongoing';
    case 'complete':
      // Strictly under 7 days: at exactly 7 days the game has moved to 'past'.
      return toMs(now) - toMs(schedule.complete) < RECENT_WINDOW_MS ? 'recent' : 'past';
  }
}

/** What a list needs of a game to place it. */
export interface ListedGame {
  schedule: ScheduleInput;
  name: string;
  uuid: string;
}

/**
 * How a list of games of one status is ordered, whichever the player cares about in it: ongoing by
 * start, upcoming soonest to open first, recent and past latest to complete first. Games at the
 * same time go by name, then key: the server lists them in no set order, and the cards swapped
 * places between visits.
 */
export function compareInList(status: GameStatus, a: ListedGame, b: ListedGame): number {
  return (
    byTime(status, a.schedule, b.schedule) || a.name.localeCompare(b.name) || a.uuid.localeCompare(b.uuid)
  );
}

function byTime(status: GameStatus, a: ScheduleInput, b: ScheduleInput): number {
  switch (status) {
    case 'ongoing':
      return toMs(a.standby) - toMs(b.standby);
    case 'upcoming':
      return toMs(a.open) - toMs(b.open);
    case 'recent':
    case 'past':
      return toMs(b.complete) - toMs(a.complete);
  }
}

/**
 * The first schedule boundary strictly after `now`, or null once all have passed. The change from
 * results to complete depends on scoring, not the clock, so it is not a boundary here.
 */
export function nextStateChangeAt(schedule: ScheduleInput, now: Date): Date | null {
  const t = toMs(now);
  const later = boundaries(schedule).filter((b) => b > t);
  return later.length === 0 ? null : new Date(Math.min(...later));
}

/** The label a game list shows for a state (spec §4); closed games carry no label. */
export function stateLabel(state: GameState, synchronous: boolean): string | null {
  switch (state) {
    case 'closed':
      return null;
    case 'open':
      return synchronous ? 'Lobby open' : 'Submissions open';
    case 'standby':
    case 'results':
      return synchronous ? 'Game in progress' : 'Submissions closed';
    case 'complete':
      return 'Results available';
  }
}

export type CallToActionKind = 'login' | 'join-community' | 'lobby' | 'enter' | 'results' | 'none';

export interface CallToActionInput {
  state: GameState;
  synchronous: boolean;
  seriesName: string;
  loggedIn: boolean;
  isMember: boolean;
  communityName: string;
  /** The player has saved at least one answer for this game. */
  hasAnswers: boolean;
  hasSubcommunities: boolean;
  /** A subcommunity is selected (or already locked in by an earlier entry). */
  subcommunityChosen: boolean;
}

export interface CallToAction {
  label: string;
  disabled: boolean;
  kind: CallToActionKind;
}

/**
 * The game page's button (spec §4 "Call-to-action"). Precedence: logged out, then not a member,
 * then the game state, because neither of the first two can act on the game whatever its state.
 */
export function callToAction(input: CallToActionInput): CallToAction {
  if (!input.loggedIn) return { label: 'Log in', disabled: false, kind: 'login' };
  if (!input.isMember) {
    return { label: `Join community ${input.communityName}`, disabled: false, kind: 'join-community' };
  }
  // Entering a game with subcommunities needs one to represent; only entry is blocked by it.
  const needsSubcommunity = input.hasSubcommunities && !input.subcommunityChosen;
  switch (input.state) {
    case 'closed':
      return { label: 'Game closed', disabled: true, kind: 'none' };
    case 'open':
      if (input.synchronous) return { label: 'Join Lobby', disabled: needsSubcommunity, kind: 'lobby' };
      return {
        label: input.hasAnswers ? `Update ${input.seriesName} answers` : `Enter ${input.seriesName}`,
        disabled: needsSubcommunity,
        kind: 'enter',
      };
    case 'standby':
    case 'results':
      return {
        label: input.synchronous ? 'Game in progress' : 'Submissions closed',
        disabled: true,
        kind: 'none',
      };
    case 'complete':
      return { label: 'See results', disabled: false, kind: 'results' };
  }
}

/**
 * Whether a player may still enter the game (and so choose a team to represent): before it opens
 * (to choose ahead), while it is open, and for a live game while it runs (DESIGN §2: a member joins
 * the question in progress). Past that, nobody new takes part.
 */
export function takesEntries(state: GameState, synchronous: boolean): boolean {
  return state === 'closed' || state === 'open' || (synchronous && state === 'standby');
}

function sameLocalDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * 'mm:ss' until `target` when it is later today (local calendar) and under 180 s away, else null.
 * Seconds are floored so the text never reads '03:00' inside the 180 s window.
 */
export function countdownText(target: Date, now: Date): string | null {
  if (!sameLocalDay(target, now)) return null;
  const ms = target.getTime() - now.getTime();
  if (!(ms > 0 && ms < COUNTDOWN_THRESHOLD_S * 1000)) return null;
  const secs = Math.floor(ms / 1000);
  return `${pad2(Math.floor(secs / 60))}:${pad2(secs % 60)}`;
}
