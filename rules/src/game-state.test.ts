import type { GameState } from '@hunch/contract';
import { gameStates } from '@hunch/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CallToActionInput,
  callToAction,
  compareInList,
  countdownText,
  gameStateAt,
  gameStatusAt,
  nextStateChangeAt,
  RECENT_WINDOW_MS,
  stateLabel,
  takesEntries,
} from './game-state';

const schedule = {
  open: '2025-03-01T10:00:00.000Z',
  standby: '2025-03-01T12:00:00.000Z',
  complete: '2025-03-01T13:00:00.000Z',
};
const at = (iso: string) => new Date(iso);
const ms = (d: Date, delta: number) => new Date(d.getTime() + delta);
const UNSCORED = { scored: false, pendingOutcomes: 0 };
const SCORED = { scored: true, pendingOutcomes: 0 };

describe('gameStateAt', () => {
  it('is closed before open and open exactly at open', () => {
    expect(gameStateAt(schedule, ms(at(schedule.open), -1), UNSCORED)).toBe('closed');
    expect(gameStateAt(schedule, at(schedule.open), UNSCORED)).toBe('open');
  });

  it('is standby exactly at standby', () => {
    expect(gameStateAt(schedule, ms(at(schedule.standby), -1), UNSCORED)).toBe('open');
    expect(gameStateAt(schedule, at(schedule.standby), UNSCORED)).toBe('standby');
  });

  it('is results at complete until scored, then complete', () => {
    expect(gameStateAt(schedule, ms(at(schedule.complete), -1), UNSCORED)).toBe('standby');
    expect(gameStateAt(schedule, at(schedule.complete), UNSCORED)).toBe('results');
    expect(gameStateAt(schedule, at(schedule.complete), SCORED)).toBe('complete');
    expect(gameStateAt(schedule, at('2030-01-01T00:00:00Z'), UNSCORED)).toBe('results');
  });

  it('stays in results from complete on while an outcome is pending, scored or not', () => {
    for (const scored of [false, true]) {
      const pending = { scored, pendingOutcomes: 1 };
      expect(gameStateAt(schedule, at(schedule.complete), pending)).toBe('results');
      expect(gameStateAt(schedule, at('2030-01-01T00:00:00Z'), { scored, pendingOutcomes: 2 })).toBe(
        'results',
      );
      expect(gameStatusAt(schedule, at('2030-01-01T00:00:00Z'), pending)).toBe('ongoing');
      // Before complete the clock alone decides.
      expect(gameStateAt(schedule, at(schedule.standby), pending)).toBe('standby');
    }
  });

  it('ignores the scored flag before complete', () => {
    expect(gameStateAt(schedule, at(schedule.open), SCORED)).toBe('open');
    expect(gameStateAt(schedule, at(schedule.standby), SCORED)).toBe('standby');
  });

  it('accepts Date schedules', () => {
    const dates = { open: at(schedule.open), standby: at(schedule.standby), complete: at(schedule.complete) };
    expect(gameStateAt(dates, at('2025-03-01T11:00:00Z'), UNSCORED)).toBe('open');
  });

  it('throws on an unparseable time', () => {
    expect(() => gameStateAt({ ...schedule, standby: 'soon' }, at(schedule.open), UNSCORED)).toThrow(
      RangeError,
    );
  });

  it('never goes back in time (property)', () => {
    const order = (s: GameState) => gameStates.indexOf(s);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1e12 }), { minLength: 5, maxLength: 5 }),
        fc.boolean(),
        fc.nat(3),
        (raw, scored, pendingOutcomes) => {
          const [a, b, c, t1, t2] = raw as [number, number, number, number, number];
          const [open, standby, complete] = [a, b, c].sort((x, y) => x - y) as [number, number, number];
          const s = { open: new Date(open), standby: new Date(standby), complete: new Date(complete) };
          const [early, late] = t1 <= t2 ? [t1, t2] : [t2, t1];
          return (
            order(gameStateAt(s, new Date(early), { scored, pendingOutcomes })) <=
            order(gameStateAt(s, new Date(late), { scored, pendingOutcomes }))
          );
        },
      ),
    );
  });
});

describe('gameStatusAt', () => {
  it('maps states to list statuses', () => {
    expect(gameStatusAt(schedule, at('2025-03-01T09:00:00Z'), UNSCORED)).toBe('upcoming');
    expect(gameStatusAt(schedule, at('2025-03-01T11:00:00Z'), UNSCORED)).toBe('ongoing');
    expect(gameStatusAt(schedule, at('2025-03-01T12:30:00Z'), UNSCORED)).toBe('ongoing');
    expect(gameStatusAt(schedule, at('2025-03-01T14:00:00Z'), UNSCORED)).toBe('ongoing');
    expect(gameStatusAt(schedule, at('2025-03-01T14:00:00Z'), SCORED)).toBe('recent');
  });

  it('is recent for under 7 days after complete, past from then on', () => {
    const complete = at(schedule.complete);
    expect(gameStatusAt(schedule, ms(complete, RECENT_WINDOW_MS - 1), SCORED)).toBe('recent');
    expect(gameStatusAt(schedule, ms(complete, RECENT_WINDOW_MS), SCORED)).toBe('past');
  });

  it('keeps an unscored game ongoing however old', () => {
    expect(gameStatusAt(schedule, at('2030-01-01T00:00:00Z'), UNSCORED)).toBe('ongoing');
  });
});

describe('nextStateChangeAt', () => {
  it('returns the next boundary strictly after now', () => {
    expect(nextStateChangeAt(schedule, at('2025-03-01T09:00:00Z'))).toEqual(at(schedule.open));
    expect(nextStateChangeAt(schedule, at(schedule.open))).toEqual(at(schedule.standby));
    expect(nextStateChangeAt(schedule, at(schedule.standby))).toEqual(at(schedule.complete));
    expect(nextStateChangeAt(schedule, at(schedule.complete))).toBeNull();
  });

  it('the state holds until the next change and changes at it (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1e12 }), { minLength: 3, maxLength: 3 }),
        fc.integer({ min: 0, max: 1e12 }),
        (raw, t) => {
          const [open, standby, complete] = [...raw].sort((x, y) => x - y) as [number, number, number];
          const s = { open: new Date(open), standby: new Date(standby), complete: new Date(complete) };
          const now = new Date(t);
          const next = nextStateChangeAt(s, now);
          const state = gameStateAt(s, now, UNSCORED);
          if (next === null) return state === 'results';
          return (
            next.getTime() > t &&
            gameStateAt(s, ms(next, -1), UNSCORED) === state &&
            gameStateAt(s, next, UNSCORED) !== state
          );
        },
      ),
    );
  });
});

describe('stateLabel', () => {
  it('labels per spec §4', () => {
    expect(stateLabel('closed', true)).toBeNull();
    expect(stateLabel('closed', false)).toBeNull();
    expect(stateLabel('open', true)).toBe('Lobby open');
    expect(stateLabel('open', false)).toBe('Submissions open');
    expect(stateLabel('standby', true)).toBe('Game in progress');
    expect(stateLabel('results', true)).toBe('Game in progress');
    expect(stateLabel('standby', false)).toBe('Submissions closed');
    expect(stateLabel('results', false)).toBe('Submissions closed');
    expect(stateLabel('complete', true)).toBe('Results available');
    expect(stateLabel('complete', false)).toBe('Results available');
  });
});

describe('callToAction', () => {
  const base: CallToActionInput = {
    state: 'open',
    synchronous: false,
    seriesName: 'Trivia Night',
    loggedIn: true,
    isMember: true,
    communityName: 'Chess Club',
    hasAnswers: false,
    hasSubcommunities: false,
    subcommunityChosen: false,
  };
  const cta = (over: Partial<CallToActionInput>) => callToAction({ ...base, ...over });

  it('asks a visitor to log in, whatever the state', () => {
    for (const state of gameStates) {
      expect(cta({ state, loggedIn: false })).toEqual({ label: 'Log in', disabled: false, kind: 'login' });
    }
  });

  it('asks a non-member to join the community', () => {
    expect(cta({ isMember: false })).toEqual({
      label: 'Join community Chess Club',
      disabled: false,
      kind: 'join-community',
    });
  });

  it('is disabled when closed', () => {
    expect(cta({ state: 'closed' })).toEqual({ label: 'Game closed', disabled: true, kind: 'none' });
  });

  it('enters, updates or joins the lobby when open', () => {
    expect(cta({})).toEqual({ label: 'Enter Trivia Night', disabled: false, kind: 'enter' });
    expect(cta({ hasAnswers: true })).toEqual({
      label: 'Update Trivia Night answers',
      disabled: false,
      kind: 'enter',
    });
    expect(cta({ synchronous: true })).toEqual({ label: 'Join Lobby', disabled: false, kind: 'lobby' });
  });

  it('needs a subcommunity chosen when the game has them', () => {
    expect(cta({ hasSubcommunities: true }).disabled).toBe(true);
    expect(cta({ hasSubcommunities: true, synchronous: true }).disabled).toBe(true);
    expect(cta({ hasSubcommunities: true, subcommunityChosen: true }).disabled).toBe(false);
    // Results do not need one.
    expect(cta({ hasSubcommunities: true, state: 'complete' }).disabled).toBe(false);
  });

  it('is disabled during standby and results', () => {
    for (const state of ['standby', 'results'] as const) {
      expect(cta({ state, synchronous: true })).toEqual({
        label: 'Game in progress',
        disabled: true,
        kind: 'none',
      });
      expect(cta({ state })).toEqual({ label: 'Submissions closed', disabled: true, kind: 'none' });
    }
  });

  it('links to results when complete', () => {
    expect(cta({ state: 'complete' })).toEqual({ label: 'See results', disabled: false, kind: 'results' });
  });
});

describe('countdownText', () => {
  // Local-time constructors keep these tests independent of the machine's time zone.
  const now = new Date(2025, 2, 1, 15, 0, 0);
  const plus = (s: number) => new Date(now.getTime() + s * 1000);

  it('shows mm:ss under 180 s', () => {
    expect(countdownText(plus(179), now)).toBe('02:59');
    expect(countdownText(plus(179.9), now)).toBe('02:59');
    expect(countdownText(plus(65), now)).toBe('01:05');
    expect(countdownText(plus(1), now)).toBe('00:01');
  });

  it('is null at or beyond 180 s, and at or after the target', () => {
    expect(countdownText(plus(180), now)).toBeNull();
    expect(countdownText(plus(0), now)).toBeNull();
    expect(countdownText(plus(-5), now)).toBeNull();
  });

  it('is null when the target is on another day', () => {
    const late = new Date(2025, 2, 1, 23, 59, 30);
    expect(countdownText(new Date(2025, 2, 2, 0, 0, 30), late)).toBeNull();
  });

  it('is either null or a valid mm:ss under 03:00 (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), (delta) => {
        const text = countdownText(new Date(now.getTime() + delta), now);
        if (delta <= 0 || delta >= 180_000) return text === null;
        return text !== null && /^0[0-2]:[0-5]\d$/.test(text);
      }),
    );
  });
});

describe('order within a list', () => {
  const game = (open: string, standby: string, complete: string, name = 'Weekly', uuid = 'a') => ({
    schedule: { open, standby, complete },
    name,
    uuid,
  });
  const early = game('2030-01-01T10:00:00Z', '2030-01-01T11:00:00Z', '2030-01-01T12:00:00Z');
  const late = game('2030-01-02T10:00:00Z', '2030-01-02T11:00:00Z', '2030-01-02T12:00:00Z');

  it('puts games at the same time by name, then by key, whatever order they came in', () => {
    const times = ['2030-01-01T10:00:00Z', '2030-01-01T11:00:00Z', '2030-01-01T12:00:00Z'] as const;
    const b = game(...times, 'Movie Buffs Weekly', 'b');
    const a2 = game(...times, 'Daily Hunch #43', 'c');
    const a1 = game(...times, 'Daily Hunch #43', 'a');
    for (const status of ['upcoming', 'ongoing', 'recent', 'past'] as const) {
      expect([b, a2, a1].sort((x, y) => compareInList(status, x, y))).toEqual([a1, a2, b]);
      expect([a1, b, a2].sort((x, y) => compareInList(status, x, y))).toEqual([a1, a2, b]);
    }
  });

  it('puts upcoming and ongoing games soonest first, finished ones latest first', () => {
    const sorted = (status: Parameters<typeof compareInList>[0]) =>
      [late, early].sort((a, b) => compareInList(status, a, b));
    expect(sorted('upcoming')).toEqual([early, late]);
    expect(sorted('ongoing')).toEqual([early, late]);
    expect(sorted('recent')).toEqual([late, early]);
    expect(sorted('past')).toEqual([late, early]);
  });
});

describe('takesEntries', () => {
  it('before and while a game is open, and while a live game runs; never after', () => {
    const states = ['closed', 'open', 'standby', 'results', 'complete'] as const;
    expect(states.filter((s) => takesEntries(s, false))).toEqual(['closed', 'open']);
    expect(states.filter((s) => takesEntries(s, true))).toEqual(['closed', 'open', 'standby']);
  });
});
