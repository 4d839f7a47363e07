import type { LiveQuestionEvent, QuestionResultEvent } from '@hunch/contract';
import { describe, expect, it } from 'vitest';
import { answerOf, liveVerdict, resultAnnouncement, standingText } from './live-result';

const colours: LiveQuestionEvent = {
  i: 1,
  type: 'guess',
  asked_at: 0,
  secs_to_answer: 10,
  time_left: 0,
  question: {
    text: 'Most popular colour?',
    image: null,
    slider: null,
    choices: ['Red', 'Green', 'Blue'].map((text, i) => ({ text, image: null, i })),
  },
};
const degrees: LiveQuestionEvent = {
  ...colours,
  i: 2,
  type: 'predict',
  question: {
    text: 'Degrees?',
    image: null,
    choices: [],
    slider: { min: 0, max: 40, step: 0.5, unit: '°C' },
  },
};

const base: QuestionResultEvent = {
  i: 1,
  type: 'guess',
  players: 1204,
  answered: 3,
  split: { of: 'votes', counts: [2, 0, 2] },
  top_choices: [0, 2],
  truth: null,
  later: false,
  you: { answer: null, points: 100, score: 1250, rank: 2 },
};

describe('live feedback: what a result says', () => {
  it('names the answer: the top choices of a guess, the crowd’s favourite of a vote, the truth of a predict', () => {
    expect(answerOf(colours, base)).toEqual({ label: 'The answer', value: 'Red and Blue' });
    expect(answerOf(colours, { ...base, type: 'vote', top_choices: [1] })).toEqual({
      label: 'The crowd’s favourite',
      value: 'Green',
    });
    expect(answerOf(degrees, { ...base, i: 2, type: 'predict', split: null, truth: 20.5 })).toEqual({
      label: 'The answer',
      value: '20.5 °C',
    });
  });

  it('says when the answer comes later instead of guessing one', () => {
    const later = { ...base, type: 'predict' as const, split: null, top_choices: [], later: true };
    expect(answerOf(degrees, later)).toEqual({ note: 'The answer comes later, once the outcome is known.' });
    expect(answerOf(colours, { ...later, type: 'vote' })).toEqual({
      note: 'How the crowd voted is revealed after a later question.',
    });
  });

  it('reads out the points, the score and the rank of N, numbers grouped', () => {
    expect(resultAnnouncement(colours, base)).toBe(
      'Question 2 result. The answer: Red and Blue. You got 100 points. Your score: 1,250, rank 2 of 1,204.',
    );
    expect(standingText(base, true)).toBe('Final score: 1,250, rank 2 of 1,204.');
    // Watching, not playing: the answer alone.
    expect(resultAnnouncement(colours, { ...base, you: null })).toBe(
      'Question 2 result. The answer: Red and Blue.',
    );
  });

  it('says a question the host voided is voided, not its answer (its points are 0 for everyone)', () => {
    const voided = { ...base, voided: true as const, you: { ...base.you!, points: 0 } };
    expect(answerOf(colours, voided)).toEqual({
      note: 'The host voided this question: it scores 0 points for everyone.',
    });
    expect(resultAnnouncement(colours, voided)).toBe(
      'Question 2 result. The host voided this question: it scores 0 points for everyone. You got 0 points. Your score: 1,250, rank 2 of 1,204.',
    );
  });

  it('calls a guess that missed but scored partly right, and only a guess that scored nothing wrong', () => {
    const mine = (choice_i: number) => ({ question_i: 1, choice_i, number_answer: null });
    // Counts 2, 1, 2: Green is not a top answer but earns round(100 × 1/2) = 50 points.
    const split = { ...base, split: { of: 'votes' as const, counts: [2, 1, 2] } };
    expect(liveVerdict(null, mine(1))).toBe('locked');
    expect(liveVerdict(split, mine(0))).toBe('right');
    expect(liveVerdict({ ...split, you: { ...base.you!, points: 50 } }, mine(1))).toBe('partly');
    expect(liveVerdict({ ...split, you: { ...base.you!, points: 0 } }, mine(1))).toBe('wrong');
    // No verdict where the answer is not judged now.
    expect(liveVerdict({ ...split, later: true }, mine(1))).toBe('none');
    expect(liveVerdict({ ...split, voided: true }, mine(1))).toBe('none');
    expect(liveVerdict({ ...split, type: 'vote' }, mine(1))).toBe('none');
    expect(liveVerdict(split, undefined)).toBe('none');
  });
});
