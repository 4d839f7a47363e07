import { askedAt, deadlineOf, LIVE_GAP_MS, MAX_LATENCY_ALLOWANCE_MS } from '@hunch/rules';
import { describe, expect, it } from 'vitest';
import type { QuestionRow } from '../core/question-queries';
import {
  type AnswerRow,
  lastResultDue,
  newTally,
  RESULT_SETTLE_MS,
  resultAt,
  scoreQuestion,
} from './question-results';

// How one closed live question scores, worked out from its answers alone (no database): the
// cases the live game meets besides the plain ones its socket test plays.

const row = (over: Partial<QuestionRow> & Pick<QuestionRow, 'i' | 'kind'>): QuestionRow => ({
  text: `Q${over.i}`,
  image: null,
  slider_min: null,
  slider_max: null,
  slider_step: null,
  slider_unit: null,
  linked_vote_i: null,
  outcome: null,
  outcome_kind: null,
  voided: false,
  secs_to_answer: 10,
  choices: ['A', 'B', 'C'].map((text, i) => ({ text, image: null, i })),
  ...over,
});
const slider = { slider_min: 0, slider_max: 40, slider_step: 1, slider_unit: 'x' };
const choice = (pid: number, c: number, at = 0): AnswerRow => ({ pid, choice_i: c, number_answer: null, at });
const number = (pid: number, n: number, at = 0): AnswerRow => ({ pid, choice_i: null, number_answer: n, at });

describe('live feedback: a question’s points', () => {
  it('gives a guess without a linked vote the plurality of the guesses, points by popularity', () => {
    const q = row({ i: 0, kind: 'guess' });
    const { outcome, points } = scoreQuestion(
      q,
      [q],
      [choice(1, 0), choice(2, 0), choice(3, 1)],
      newTally(0),
      null,
    );
    expect(outcome).toMatchObject({
      split: { of: 'guesses', counts: [2, 1, 0] },
      top_choices: [0],
      later: false,
    });
    expect(Object.fromEntries(points!)).toEqual({ 1: 100, 2: 100, 3: 50 });
  });

  it('holds a pending predict and a guess whose vote comes later: no answer, points to come', () => {
    const pending = row({ i: 0, kind: 'predict', outcome_kind: 'pending', ...slider });
    const guess = row({ i: 1, kind: 'guess', linked_vote_i: 2 });
    const vote = row({ i: 2, kind: 'vote' });
    const all = [pending, guess, vote];
    const p = scoreQuestion(pending, all, [number(1, 10)], newTally(0), null);
    expect(p).toEqual({
      outcome: { i: 0, type: 'predict', answered: 1, split: null, top_choices: [], truth: null, later: true },
      points: null,
    });
    expect(scoreQuestion(guess, all, [choice(1, 0)], newTally(0), null).points).toBeNull();
  });

  it('withholds a vote’s split while its linked guess is still to come; the guess shows it', () => {
    const vote = row({ i: 0, kind: 'vote' });
    const guess = row({ i: 1, kind: 'guess', linked_vote_i: 0 });
    const tally = newTally(0);
    const v = scoreQuestion(vote, [vote, guess], [choice(1, 2), choice(2, 2), choice(3, 0)], tally, null);
    expect(v.outcome).toMatchObject({ later: true, split: null, top_choices: [] });
    expect(Object.fromEntries(v.points!)).toEqual({ 1: 0, 2: 0, 3: 0 });
    const g = scoreQuestion(guess, [vote, guess], [choice(1, 2), choice(2, 0)], tally, null);
    expect(g.outcome).toMatchObject({
      later: false,
      split: { of: 'votes', counts: [1, 0, 2] },
      top_choices: [2],
    });
    expect(Object.fromEntries(g.points!)).toEqual({ 1: 100, 2: 50 });
  });

  it('shows a crowd predict nobody answered as such, a voided question scores 0, the speed bonus applies', () => {
    const crowd = row({ i: 0, kind: 'predict', outcome_kind: 'crowd', ...slider });
    expect(scoreQuestion(crowd, [crowd], [], newTally(0), null).outcome).toMatchObject({
      truth: null,
      later: false,
    });
    const voided = row({
      i: 0,
      kind: 'predict',
      outcome_kind: 'number',
      outcome: 20,
      voided: true,
      ...slider,
    });
    const scored = scoreQuestion(voided, [voided], [number(1, 20)], newTally(0), null);
    expect(Object.fromEntries(scored.points!)).toEqual({ 1: 0 });
    // Its result says so, for the players' screens; one not voided says nothing of it.
    expect(scored.outcome.voided).toBe(true);
    expect('voided' in scoreQuestion(crowd, [crowd], [], newTally(0), null).outcome).toBe(false);
    // With the speed bonus: an answer at the deadline keeps 90 %.
    const host = row({ i: 0, kind: 'predict', outcome_kind: 'number', outcome: 20, ...slider });
    const s = { startAt: 0, secs: [10] };
    const timed = scoreQuestion(
      host,
      [host],
      [number(1, 20, askedAt(s, 0)), number(2, 20, deadlineOf(s, 0))],
      newTally(0),
      s,
    );
    expect(Object.fromEntries(timed.points!)).toEqual({ 1: 100, 2: 90 });
  });
});

describe('live feedback: when a result is out', () => {
  it('is after the deadline and the latency allowance, and before the next question', () => {
    const s = { startAt: 0, secs: [10, 10] };
    expect(resultAt(s, 0)).toBe(deadlineOf(s, 0) + MAX_LATENCY_ALLOWANCE_MS + RESULT_SETTLE_MS);
    expect(resultAt(s, 0)).toBeLessThan(askedAt(s, 1));
    expect(resultAt(s, 1)).toBeLessThan(deadlineOf(s, 1) + LIVE_GAP_MS);
    expect(lastResultDue(s, resultAt(s, 0) - 1)).toBe(-1);
    expect(lastResultDue(s, resultAt(s, 0))).toBe(0);
    expect(lastResultDue(s, resultAt(s, 1) + 60_000)).toBe(1);
  });
});
