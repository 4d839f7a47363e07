import type { LiveQuestionEvent, QuestionResultEvent } from '@hunch/contract';
import { describe, expect, it } from 'vitest';
import {
  ANSWER_NOT_CONFIRMED,
  closedText,
  initialLiveState,
  type LiveState,
  liveReducer,
} from './live-state';

// The live screen's state: an answer whose acknowledgement is lost with the connection must not
// leave the player unable to answer again.

const question = (i: number): LiveQuestionEvent =>
  ({
    i,
    question: { text: `Q${i}` },
    type: 'vote',
    asked_at: 0,
    secs_to_answer: 10,
    time_left: 10_000,
  }) as never;

function sendingAnswer(i: number): LiveState {
  let s = liveReducer(initialLiveState, { type: 'connected' });
  s = liveReducer(s, { type: 'question', event: question(i), now: 1_000 });
  return liveReducer(s, { type: 'sending', i });
}

describe('live state: answers', () => {
  it('frees the answer buttons and says so when an acknowledgement is lost', () => {
    let s = sendingAnswer(0);
    expect(s.sending).toBe(0);
    s = liveReducer(s, { type: 'connection-lost', retrying: true, problem: null });
    s = liveReducer(s, { type: 'ack-lost', i: 0 });
    expect(s.sending).toBeNull();
    expect(s.answerError).toEqual({ i: 0, text: ANSWER_NOT_CONFIRMED });
    // The next question can be answered.
    s = liveReducer(s, { type: 'question', event: question(1), now: 2_000 });
    s = liveReducer(s, { type: 'sending', i: 1 });
    expect(s.sending).toBe(1);
  });

  it('shows the answer as stored when the resume says it was, with no error left', () => {
    let s = liveReducer(sendingAnswer(0), { type: 'ack-lost', i: 0 });
    s = liveReducer(s, {
      type: 'resume',
      now: 3_000,
      event: {
        phase: 'question',
        in_lobby: true,
        answers: [{ question_i: 0, choice_i: 2, number_answer: null }],
        players: 2,
        time_left: 5_000,
        last_question: null,
        last_result: null,
      },
    });
    expect(s.answers[0]).toEqual({ question_i: 0, choice_i: 2, number_answer: null });
    expect(s.answerError).toBeNull();
  });

  it('keeps a stored answer without an error when a late loss is reported for it', () => {
    let s = sendingAnswer(0);
    s = liveReducer(s, {
      type: 'ack',
      i: 0,
      ack: { ok: true, answer: { question_i: 0, choice_i: 1, number_answer: null } },
    });
    s = liveReducer(s, { type: 'ack-lost', i: 0 });
    expect(s.answerError).toBeNull();
    expect(s.answers[0]?.choice_i).toBe(1);
  });
});

describe('live state: reconnecting between questions', () => {
  it('shows the question that just closed, with the stored answer, after a reload in the gap', () => {
    const s = liveReducer(liveReducer(initialLiveState, { type: 'connected' }), {
      type: 'resume',
      now: 0,
      event: {
        phase: 'between',
        in_lobby: true,
        answers: [{ question_i: 1, choice_i: 0, number_answer: null }],
        players: 3,
        time_left: 2_000,
        last_question: question(1),
        last_result: null,
      },
    });
    expect(s.stage).toEqual({ kind: 'between', last: question(1) });
    expect(s.answers[1]?.choice_i).toBe(0);
  });

  it('keeps the summary it already shows when the connection comes back in the same gap', () => {
    let s = liveReducer(initialLiveState, { type: 'connected' });
    s = liveReducer(s, { type: 'question', event: question(0), now: 0 });
    s = liveReducer(s, { type: 'time-up', i: 0 });
    const resume = { phase: 'between' as const, in_lobby: true, answers: [], players: 3, time_left: 2_000 };
    s = liveReducer(s, {
      type: 'resume',
      now: 1,
      event: { ...resume, last_question: question(0), last_result: null },
    });
    expect(s.stage).toEqual({ kind: 'between', last: question(0) });
  });

  it('stays in the game under way when it comes back in the next question, until the question comes', () => {
    let s = liveReducer(initialLiveState, { type: 'connected' });
    s = liveReducer(s, { type: 'question', event: question(0), now: 0 });
    s = liveReducer(s, { type: 'time-up', i: 0 });
    s = liveReducer(s, { type: 'connection-lost', retrying: true, problem: null });
    s = liveReducer(s, { type: 'connected' });
    const resume = { phase: 'question' as const, in_lobby: true, answers: [], players: 3, time_left: 8_000 };
    s = liveReducer(s, {
      type: 'resume',
      now: 1,
      event: { ...resume, last_question: null, last_result: null },
    });
    // Not 'waiting': the panel stays running (on a phone, the tab bar stays hidden).
    expect(s.stage).toEqual({ kind: 'between', last: question(0) });
    s = liveReducer(s, { type: 'question', event: question(1), now: 2 });
    expect(s.stage).toMatchObject({ kind: 'question', question: question(1) });
    // A page that was not in the game yet waits for the question.
    const fresh = liveReducer(liveReducer(initialLiveState, { type: 'connected' }), {
      type: 'resume',
      now: 1,
      event: { ...resume, last_question: null, last_result: null },
    });
    expect(fresh.stage).toEqual({ kind: 'waiting' });
  });
});

const result = (i: number, score: number): QuestionResultEvent => ({
  i,
  type: 'guess',
  players: 3,
  answered: 3,
  split: { of: 'guesses', counts: [2, 1] },
  top_choices: [0],
  truth: null,
  later: false,
  you: { answer: { question_i: i, choice_i: 0, number_answer: null }, points: 50, score, rank: 2 },
});

describe('live feedback: results in the state', () => {
  it('closes the question when its result comes before the local clock says so, and keeps the result', () => {
    let s = liveReducer(initialLiveState, { type: 'connected' });
    s = liveReducer(s, { type: 'question', event: question(0), now: 0 });
    s = liveReducer(s, { type: 'result', event: result(0, 50) });
    expect(s.stage).toEqual({ kind: 'between', last: question(0) });
    expect(s.result).toEqual(result(0, 50));
    // The next question keeps it (the game-complete screen reads the last one).
    s = liveReducer(s, { type: 'question', event: question(1), now: 10 });
    expect(s.result?.i).toBe(0);
  });

  it('counts the players from each result: one who joined late is counted by everyone', () => {
    let s = liveReducer(initialLiveState, { type: 'connected' });
    s = liveReducer(s, { type: 'count', count: 16 });
    s = liveReducer(s, { type: 'question', event: question(0), now: 0 });
    s = liveReducer(s, { type: 'result', event: { ...result(0, 50), players: 17 } });
    expect(s.players).toBe(17);
    // An older result arriving late does not take the count back.
    s = liveReducer(s, { type: 'result', event: { ...result(1, 90), players: 18 } });
    s = liveReducer(s, { type: 'result', event: { ...result(0, 50), players: 17 } });
    expect(s.players).toBe(18);
  });

  it('counts a player in the lobby at least themselves, whatever an older count says', () => {
    let s = liveReducer(initialLiveState, { type: 'connected' });
    s = liveReducer(s, { type: 'count', count: 0 });
    expect(s.players).toBe(0);
    s = liveReducer(s, { type: 'lobby', joined: true });
    expect(s.players).toBe(1);
    // The count cached before the entry landed arrives after it.
    s = liveReducer(s, { type: 'count', count: 0 });
    expect(s.players).toBe(1);
    s = liveReducer(s, { type: 'count', count: 5 });
    expect(s.players).toBe(5);
  });

  it('takes the result a resume carries, and never goes back to an older one', () => {
    let s = liveReducer(initialLiveState, { type: 'connected' });
    s = liveReducer(s, { type: 'result', event: result(1, 120) });
    s = liveReducer(s, { type: 'result', event: result(0, 50) });
    expect(s.result?.i).toBe(1);
    const resume = {
      phase: 'between' as const,
      in_lobby: true,
      answers: [],
      players: 3,
      time_left: 2_000,
      last_question: question(2),
    };
    s = liveReducer(s, { type: 'resume', now: 1, event: { ...resume, last_result: null } });
    expect(s.result?.i).toBe(1);
    s = liveReducer(s, { type: 'resume', now: 2, event: { ...resume, last_result: result(2, 170) } });
    expect(s.result).toEqual(result(2, 170));
  });
});

describe('live state: other tabs', () => {
  it("shows another tab's stored answer as this one's, clearing its error, and keeps the first", () => {
    let s = liveReducer(sendingAnswer(0), { type: 'ack-lost', i: 0 });
    s = liveReducer(s, {
      type: 'stored-elsewhere',
      answer: { question_i: 0, choice_i: 1, number_answer: null },
    });
    expect(s.answers[0]?.choice_i).toBe(1);
    expect(s.answerError).toBeNull();
    // The server stores only the first answer: a later message cannot replace it.
    s = liveReducer(s, {
      type: 'stored-elsewhere',
      answer: { question_i: 0, choice_i: 3, number_answer: null },
    });
    expect(s.answers[0]?.choice_i).toBe(1);
    // Another question's error is not touched.
    s = liveReducer(s, { type: 'question', event: question(1), now: 2_000 });
    s = liveReducer(s, { type: 'sending', i: 1 });
    s = liveReducer(s, { type: 'ack-lost', i: 1 });
    s = liveReducer(s, {
      type: 'stored-elsewhere',
      answer: { question_i: 0, choice_i: 1, number_answer: null },
    });
    expect(s.answerError?.i).toBe(1);
  });
});

describe('live state: lobby', () => {
  const resumed = (inLobby: boolean, players: number) =>
    liveReducer(liveReducer(initialLiveState, { type: 'connected' }), {
      type: 'resume',
      now: 0,
      event: {
        phase: 'lobby',
        in_lobby: inLobby,
        answers: [],
        players,
        time_left: 0,
        last_question: null,
        last_result: null,
      },
    });

  it('counts a player who just joined at once, and only once', () => {
    let s = liveReducer(resumed(false, 0), { type: 'lobby', joined: true });
    expect(s.players).toBe(1);
    s = liveReducer(s, { type: 'lobby', joined: true });
    expect(s.players).toBe(1);
    expect(liveReducer(resumed(true, 4), { type: 'lobby', joined: true }).players).toBe(4);
    expect(liveReducer(resumed(false, 4), { type: 'lobby', joined: false }).players).toBe(4);
  });
});

describe('an answer problem once its question has closed', () => {
  it('no longer asks to answer again, and keeps any other problem as it is', () => {
    expect(ANSWER_NOT_CONFIRMED).toMatch(/Answer again/);
    expect(closedText(ANSWER_NOT_CONFIRMED)).not.toMatch(/Answer again/);
    expect(closedText(ANSWER_NOT_CONFIRMED)).toMatch(
      /^Your answer was not confirmed before the question closed/,
    );
    expect(closedText('Too late: the question had closed')).toBe('Too late: the question had closed');
  });
});
