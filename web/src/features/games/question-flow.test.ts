import { describe, expect, it } from 'vitest';
import {
  choiceQuestion,
  makeParticipation,
  savedChoice,
  savedNumber,
  sliderQuestion,
} from '../../test/factories';
import {
  answeredCount,
  correctedQuestionNumber,
  draftFor,
  draftStatus,
  firstUnanswered,
  orderedQuestions,
  stillUnanswered,
  withStoredAnswer,
} from './question-flow';

describe('question flow: where to start', () => {
  // The entry may list its questions in any order; the flow asks them by index.
  const questions = [choiceQuestion(2), choiceQuestion(0), choiceQuestion(1)];

  it('asks the questions by index', () => {
    expect(orderedQuestions(makeParticipation(questions)).map((q) => q.i)).toEqual([0, 1, 2]);
  });

  it('opens the first question without a saved answer', () => {
    expect(firstUnanswered(makeParticipation(questions))).toBe(1);
    expect(firstUnanswered(makeParticipation(questions, { 0: savedChoice(1, 'Green') }))).toBe(2);
    expect(
      firstUnanswered(makeParticipation(questions, { 0: savedChoice(1, 'Green'), 2: savedChoice(0, 'Red') })),
    ).toBe(2);
    expect(firstUnanswered(makeParticipation(questions, { 1: savedChoice(0, 'Red') }))).toBe(1);
  });

  it("the last question's Submit & Finish goes to a question still unanswered, if any", () => {
    const saved = savedChoice(0, 'Red');
    // The last one just stored, the first one skipped: back to it.
    expect(stillUnanswered(makeParticipation(questions, { 1: saved }), 2)).toBe(1);
    expect(stillUnanswered(makeParticipation(questions, { 0: saved }), 2)).toBe(2);
    // Every other one answered: finished, whether or not the cache has the last one yet.
    expect(stillUnanswered(makeParticipation(questions, { 0: saved, 1: saved }), 2)).toBeNull();
    expect(stillUnanswered(makeParticipation(questions, { 0: saved, 1: saved, 2: saved }), 2)).toBeNull();
  });

  it('starts again at the first question once all are answered', () => {
    const all = { 0: savedChoice(0, 'Red'), 1: savedChoice(0, 'Red'), 2: savedChoice(0, 'Red') };
    expect(firstUnanswered(makeParticipation(questions, all))).toBe(1);
    expect(answeredCount(makeParticipation(questions, all))).toBe(3);
  });

  it('counts only the answers to the entry’s own questions', () => {
    const p = makeParticipation(questions, { 1: savedChoice(0, 'Red'), 7: savedChoice(0, 'Red') });
    expect(answeredCount(p)).toBe(1);
  });
});

describe('question flow: the ?q= number', () => {
  it('keeps a number within the questions', () => {
    expect(correctedQuestionNumber(1, 3)).toBeNull();
    expect(correctedQuestionNumber(3, 3)).toBeNull();
  });

  it('moves anything else to the nearest question, or the first', () => {
    expect(correctedQuestionNumber(0, 3)).toBe(1);
    expect(correctedQuestionNumber(-4, 3)).toBe(1);
    expect(correctedQuestionNumber(9, 3)).toBe(3);
    expect(correctedQuestionNumber(2.5, 3)).toBe(2);
    expect(correctedQuestionNumber(Number.NaN, 3)).toBe(1);
    expect(correctedQuestionNumber(Number('abc'), 3)).toBe(1);
  });
});

describe('question form state', () => {
  it('starts a choice question with nothing chosen, or with the saved choice', () => {
    expect(draftFor(choiceQuestion(0), undefined)).toEqual({
      question_i: 0,
      choice_i: null,
      number_answer: null,
    });
    expect(draftFor(choiceQuestion(4), savedChoice(2, 'Blue'))).toEqual({
      question_i: 4,
      choice_i: 2,
      number_answer: null,
    });
  });

  it('starts a slider in the middle of its range, on a step, or at the saved number', () => {
    expect(draftFor(sliderQuestion(1), undefined).number_answer).toBe(50);
    expect(draftFor(sliderQuestion(1, { min: 0, max: 10, step: 3, unit: '' }), undefined).number_answer).toBe(
      6,
    );
    expect(
      draftFor(sliderQuestion(1, { min: 1, max: 2, step: 0.1, unit: '' }), undefined).number_answer,
    ).toBe(1.5);
    expect(draftFor(sliderQuestion(1), savedNumber(85)).number_answer).toBe(85);
  });

  it('enables Submit only for an answer that differs from the saved one', () => {
    const q = choiceQuestion(0);
    const none = draftFor(q, undefined);
    expect(draftStatus(q, none, undefined)).toEqual({ isPredict: false, answered: false, changed: false });
    const picked = { ...none, choice_i: 1 };
    expect(draftStatus(q, picked, undefined)).toEqual({ isPredict: false, answered: true, changed: true });
    expect(draftStatus(q, picked, savedChoice(1, 'Green')).changed).toBe(false);
    expect(draftStatus(q, picked, savedChoice(0, 'Red')).changed).toBe(true);
  });

  it('counts an untouched slider as an answer worth submitting when nothing is saved', () => {
    const q = sliderQuestion(2);
    const draft = draftFor(q, undefined);
    expect(draftStatus(q, draft, undefined)).toEqual({ isPredict: true, answered: true, changed: true });
    expect(draftStatus(q, draftFor(q, savedNumber(40)), savedNumber(40)).changed).toBe(false);
    expect(draftStatus(q, { ...draft, number_answer: 45 }, savedNumber(40)).changed).toBe(true);
  });

  it('writes the stored answer into the entry, with the choice’s text', () => {
    const q = choiceQuestion(1, ['Tea', 'Coffee']);
    const before = makeParticipation([choiceQuestion(0), q], { 0: savedChoice(0, 'Red') });
    const after = withStoredAnswer(before, q, { choice_i: 1, number_answer: null });
    expect(after.answers).toEqual({
      '0': savedChoice(0, 'Red'),
      '1': { choice: 'Coffee', choice_i: 1, number_answer: null },
    });
    // The cached entry is replaced, not changed in place.
    expect(before.answers['1']).toBeUndefined();
    const s = sliderQuestion(2);
    expect(withStoredAnswer(before, s, { choice_i: null, number_answer: 35 }).answers['2']).toEqual(
      savedNumber(35),
    );
  });
});
