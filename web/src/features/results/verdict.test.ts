import type { MyAnswer, QuestionItem } from '@hunch/contract';
import { describe, expect, it } from 'vitest';
import { formatCount, formatPercent, formatPoints } from './number-format';
import { answerText, truthText, verdictOf } from './verdict';

const choices = ['Red', 'Blue', 'Green'].map((text, i) => ({ text, image: null, i }));
const question = (type: QuestionItem['type'], voided = false): QuestionItem => ({
  type,
  i: 0,
  question: {
    text: 'Q?',
    image: null,
    choices: type === 'predict' ? [] : choices,
    slider: type === 'predict' ? { min: 0, max: 300, step: 1, unit: 'min' } : null,
  },
  voided,
});
const mine = (choice: string | null, n: number | null = null, points = 0): MyAnswer => ({
  question_i: 0,
  choice_i: choice === null ? null : choices.findIndex((c) => c.text === choice),
  choice,
  number_answer: n,
  points,
});
const truth = (cc: string[], cn: number[] = []) => ({ correct_choices: cc, correct_numbers: cn });

describe('breakdown verdict: judged by the player’s own answer', () => {
  it('marks a guess right only when the player chose a top choice', () => {
    expect(verdictOf(question('guess'), truth(['Blue']), mine('Blue'))).toEqual({
      kind: 'right',
      text: '✓ Right',
    });
    // The truth is Blue; the player said Red: wrong, whatever the truth's own mark says.
    expect(verdictOf(question('guess'), truth(['Blue']), mine('Red'))).toEqual({
      kind: 'wrong',
      text: '✗ Wrong',
    });
    expect(verdictOf(question('guess'), truth(['Blue', 'Red']), mine('Red'))?.kind).toBe('right');
  });

  it('never says Wrong beside points: a guess that earned its share is partly right', () => {
    // /scoring: 'any other choice earns its share'. 60 points for Red is not a wrong answer.
    expect(verdictOf(question('guess'), truth(['Blue']), mine('Red', null, 60))).toEqual({
      kind: 'partly',
      text: '◐ Partly right',
    });
    expect(verdictOf(question('guess'), truth(['Blue']), mine('Red', null, 0))?.text).toBe('✗ Wrong');
    // The top choice stays right whatever its points (a speed bonus lost, a linked vote).
    expect(verdictOf(question('guess'), truth(['Blue']), mine('Blue', null, 90))?.kind).toBe('right');
  });

  it('marks a near prediction that scored as partly right, still saying how far off', () => {
    expect(verdictOf(question('predict'), truth([], [180]), mine(null, 210, 81))).toEqual({
      kind: 'partly',
      text: '◐ Off by 30 min',
    });
    expect(verdictOf(question('predict'), truth([], [0]), mine(null, 300, 0))?.kind).toBe('wrong');
  });

  it('says how far off a prediction was, and right only on the truth', () => {
    expect(verdictOf(question('predict'), truth([], [180]), mine(null, 180))?.kind).toBe('right');
    expect(verdictOf(question('predict'), truth([], [180]), mine(null, 1410))).toEqual({
      kind: 'wrong',
      text: '✗ Off by 1,230 min',
    });
  });

  it('gives a vote no right or wrong, only whether it sided with the crowd', () => {
    expect(verdictOf(question('vote'), truth(['Blue']), mine('Blue'))).toEqual({
      kind: 'crowd',
      text: '★ With the crowd',
    });
    expect(verdictOf(question('vote'), truth(['Blue']), mine('Red'))).toBeNull();
  });

  it('has no verdict without an answer, a truth, or for a voided question', () => {
    expect(verdictOf(question('guess'), truth(['Blue']), undefined)).toBeNull();
    expect(verdictOf(question('guess'), truth([]), mine('Blue'))).toBeNull();
    expect(verdictOf(question('predict'), truth([], []), mine(null, 3))).toBeNull();
    expect(verdictOf(question('guess', true), truth(['Blue']), mine('Blue'))).toBeNull();
  });

  it('writes answers and truths with the one number format', () => {
    expect(answerText(question('predict'), mine(null, 1250.5))).toBe('1,250.5 min');
    expect(answerText(question('guess'), mine('Green'))).toBe('Green');
    expect(
      truthText(question('guess'), {
        ...truth(['Red', 'Blue']),
        choices: {},
        ranges: [],
        n: 3,
        withheld: false,
      }),
    ).toBe('Red or Blue');
    expect(formatPercent(45.25)).toBe('45.3%');
    expect(formatPercent(100)).toBe('100.0%');
    expect(formatPercent(21)).toBe('21.0%');
    expect(formatCount(1204)).toBe('1,204');
    expect([formatPoints(1), formatPoints(81)]).toEqual(['1 point', '81 points']);
  });
});
