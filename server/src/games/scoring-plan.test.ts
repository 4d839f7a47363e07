import { describe, expect, it } from 'vitest';
import type { QuestionRow } from '../core/question-queries';
import { BY_CLOSENESS, planNeeds, planQuestions, ZERO } from './scoring-plan';

const predict = (over: Partial<QuestionRow>): QuestionRow => ({
  i: 0,
  kind: 'predict',
  text: 'How many?',
  image: null,
  slider_min: 0,
  slider_max: 100,
  slider_step: 1,
  slider_unit: null,
  linked_vote_i: null,
  outcome: null,
  outcome_kind: 'crowd',
  voided: false,
  secs_to_answer: 10,
  choices: [],
  ...over,
});
const medians = new Map([[0, 42]]);

describe('the scoring plan of a predict question', () => {
  it('takes the crowd median for a crowd outcome, and the entered number for a pending one', () => {
    expect(planNeeds([predict({})]).mediansOf).toEqual([0]);
    expect(planQuestions([predict({})], new Map(), medians, null)[0]).toMatchObject({
      mode: BY_CLOSENESS,
      truth: 42,
    });
    const entered = predict({ outcome_kind: 'pending', outcome: 7 });
    expect(planNeeds([entered]).mediansOf).toEqual([]);
    expect(planQuestions([entered], new Map(), medians, null)[0]).toMatchObject({ truth: 7 });
  });

  it('never stands the crowd median in for a pending outcome not entered', () => {
    const owed = predict({ outcome_kind: 'pending' });
    expect(() => planNeeds([owed])).toThrow(/Question 1 has no outcome yet/);
    expect(() => planQuestions([owed], new Map(), medians, null)).toThrow(/Question 1 has no outcome yet/);
  });

  it('scores a voided pending question 0, entered or not', () => {
    const voided = predict({ outcome_kind: 'pending', voided: true });
    expect(planNeeds([voided]).mediansOf).toEqual([]);
    expect(planQuestions([voided], new Map(), medians, null)[0]).toMatchObject({ mode: ZERO });
  });
});
