import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answeredAt,
  answerInTime,
  askedAt,
  countdownSecs,
  deadlineOf,
  LIVE_COUNTDOWN_MS,
  LIVE_GAP_MS,
  liveEndsAt,
  livePhaseAt,
  MAX_LATENCY_ALLOWANCE_MS,
  phaseEndsAt,
  questionsAskedBy,
  stepAt,
  stepDue,
  withSpeedBonus,
} from './live-timeline';

const s = { startAt: 1_000_000, secs: [10, 20, 15] };

describe('live timeline', () => {
  it('runs lobby, countdown, questions with gaps, then complete', () => {
    expect(livePhaseAt(s, s.startAt - 1)).toEqual({ kind: 'lobby' });
    expect(livePhaseAt(s, s.startAt)).toMatchObject({ kind: 'countdown' });
    const q0 = s.startAt + LIVE_COUNTDOWN_MS;
    expect(livePhaseAt(s, q0)).toEqual({ kind: 'question', i: 0, askedAt: q0, deadline: q0 + 10_000 });
    expect(livePhaseAt(s, q0 + 10_000)).toMatchObject({ kind: 'between', i: 0 });
    expect(livePhaseAt(s, q0 + 10_000 + LIVE_GAP_MS)).toMatchObject({ kind: 'question', i: 1 });
    expect(livePhaseAt(s, liveEndsAt(s))).toMatchObject({ kind: 'complete' });
    expect(livePhaseAt(s, deadlineOf(s, 2))).toMatchObject({ kind: 'complete' });
  });

  it('numbers the steps: start, each question, complete', () => {
    expect(stepDue(s, s.startAt - 1)).toBe(-1);
    expect(stepDue(s, s.startAt)).toBe(0);
    expect(stepDue(s, askedAt(s, 0))).toBe(1);
    expect(stepDue(s, askedAt(s, 2))).toBe(3);
    expect(stepDue(s, liveEndsAt(s))).toBe(4);
    expect(stepAt(s, 4)).toBe(liveEndsAt(s));
  });

  it('tells the countdown seconds left, whole, never below zero', () => {
    expect(countdownSecs(s, s.startAt)).toBe(LIVE_COUNTDOWN_MS / 1000);
    expect(countdownSecs(s, s.startAt + 2_100)).toBe(3);
    expect(countdownSecs(s, askedAt(s, 0))).toBe(0);
    expect(countdownSecs(s, askedAt(s, 0) + 5_000)).toBe(0);
  });

  it('counts the questions asked so far, none before the first and all once the last is out', () => {
    expect(questionsAskedBy(s, s.startAt - 1)).toBe(0);
    expect(questionsAskedBy(s, askedAt(s, 0) - 1)).toBe(0);
    expect(questionsAskedBy(s, askedAt(s, 0))).toBe(1);
    expect(questionsAskedBy(s, askedAt(s, 2) - 1)).toBe(2);
    expect(questionsAskedBy(s, askedAt(s, 2))).toBe(3);
    expect(questionsAskedBy(s, liveEndsAt(s) + 60_000)).toBe(3);
  });

  it('accepts answers only inside the window plus a capped delay allowance', () => {
    const d = deadlineOf(s, 1);
    expect(answerInTime(s, 1, askedAt(s, 1) - 1, 0)).toBe(false);
    expect(answerInTime(s, 1, d, 0)).toBe(true);
    expect(answerInTime(s, 1, d + 1, 0)).toBe(false);
    expect(answerInTime(s, 1, d + 100, 150)).toBe(true);
    expect(answerInTime(s, 1, d + MAX_LATENCY_ALLOWANCE_MS + 1, 60_000)).toBe(false);
    expect(answerInTime(s, 7, d, 0)).toBe(false);
  });

  it('dates an answer by when it was sent: its arrival less the capped one-way delay', () => {
    expect(answeredAt(10_000, 120)).toBe(9_880);
    expect(answeredAt(10_000, -5)).toBe(10_000);
    expect(answeredAt(10_000, 60_000)).toBe(10_000 - MAX_LATENCY_ALLOWANCE_MS);
    // An answer let in by the allowance was sent in time.
    const d = deadlineOf(s, 1);
    expect(answerInTime(s, 1, d + 100, 150)).toBe(answeredAt(d + 100, 150) <= d);
  });

  it('has phases that never go backwards (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 8 }),
        fc.nat(600_000),
        fc.nat(600_000),
        (secs, a, b) => {
          const sched = { startAt: 0, secs };
          const [t1, t2] = a <= b ? [a, b] : [b, a];
          expect(stepDue(sched, t1)).toBeLessThanOrEqual(stepDue(sched, t2));
        },
      ),
    );
  });
});

describe('speed bonus', () => {
  it('keeps all points for an instant answer and 90 % at the deadline, never more than given', () => {
    expect(withSpeedBonus(100, s, 0, askedAt(s, 0))).toBe(100);
    expect(withSpeedBonus(100, s, 0, deadlineOf(s, 0))).toBe(90);
    expect(withSpeedBonus(100, s, 0, askedAt(s, 0) + 5_000)).toBe(95);
    expect(withSpeedBonus(0, s, 0, askedAt(s, 0))).toBe(0);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: -5000, max: 40_000 }), (p, dt) => {
        const v = withSpeedBonus(p, s, 1, askedAt(s, 1) + dt);
        expect(v).toBeLessThanOrEqual(p);
        expect(v).toBeGreaterThanOrEqual(Math.round(p * 0.9) - 1);
      }),
    );
  });
});

describe('phase end', () => {
  it('is when the phase in progress gives way to the next, and after now until the last deadline', () => {
    expect(phaseEndsAt(livePhaseAt(s, s.startAt - 1))).toBe(0);
    expect(phaseEndsAt(livePhaseAt(s, s.startAt))).toBe(askedAt(s, 0));
    expect(phaseEndsAt(livePhaseAt(s, askedAt(s, 0)))).toBe(deadlineOf(s, 0));
    expect(phaseEndsAt(livePhaseAt(s, deadlineOf(s, 0)))).toBe(askedAt(s, 1));
    expect(phaseEndsAt(livePhaseAt(s, liveEndsAt(s)))).toBe(0);
    fc.assert(
      fc.property(fc.integer({ min: s.startAt, max: deadlineOf(s, s.secs.length - 1) - 1 }), (now) => {
        expect(phaseEndsAt(livePhaseAt(s, now))).toBeGreaterThan(now);
      }),
    );
  });
});
