import type {
  LiveAnswer,
  LiveAnswerAck,
  LiveQuestionEvent,
  LiveResumeEvent,
  QuestionResultEvent,
} from '@hunch/contract';
import { LIVE_COUNTDOWN_MS } from '@hunch/rules';

/**
 * The live game as this client sees it, driven only by server events (and the local clock for the
 * time left, which the server's `time_left` anchors). Pure: the socket hook feeds it actions.
 */

/** Where the connection stands; `refused` and `closed` do not retry on their own. */
export type LiveConnection = 'connecting' | 'connected' | 'reconnecting' | 'refused' | 'closed';

export type LiveStage =
  /** Connected or connecting, before the server said where the game is. */
  | { kind: 'waiting' }
  | { kind: 'lobby' }
  /** `endsAt` in local ms. */
  | { kind: 'countdown'; endsAt: number }
  /** `deadline` in local ms: the moment the server's time_left runs out. */
  | { kind: 'question'; question: LiveQuestionEvent; deadline: number }
  /** After a question closed, before the next one or the end; `last` is null when resumed mid-gap. */
  | { kind: 'between'; last: LiveQuestionEvent | null }
  | { kind: 'complete' };

export interface LiveState {
  connection: LiveConnection;
  /** The server's refusal ('Log in to play', ...) or why the connection closed. */
  problem: string | null;
  stage: LiveStage;
  /** In the game (lobby joined, or an entry found on resume); null until known. */
  joined: boolean | null;
  players: number | null;
  /** Stored answers by question index (the server's copy). */
  answers: Record<number, LiveAnswer>;
  /** The question whose answer is on its way. */
  sending: number | null;
  /** The latest closed question's result (the answer, the player's points, score and rank). */
  result: QuestionResultEvent | null;
  answerError: { i: number; text: string } | null;
}

export type LiveAction =
  | { type: 'connecting' }
  | { type: 'connected' }
  | { type: 'connection-lost'; retrying: boolean; problem: string | null }
  | { type: 'refused'; problem: string }
  | { type: 'resume'; event: LiveResumeEvent; now: number }
  | { type: 'lobby'; joined: boolean }
  | { type: 'count'; count: number }
  | { type: 'game-start'; now: number }
  | { type: 'countdown'; secs: number; now: number }
  | { type: 'question'; event: LiveQuestionEvent; now: number }
  | { type: 'time-up'; i: number }
  | { type: 'result'; event: QuestionResultEvent }
  | { type: 'complete' }
  | { type: 'sending'; i: number }
  | { type: 'ack'; i: number; ack: LiveAnswerAck }
  /** Another tab of this browser had an answer stored (the server keeps the first one). */
  | { type: 'stored-elsewhere'; answer: LiveAnswer }
  /** The connection dropped before the answer was acknowledged. */
  | { type: 'ack-lost'; i: number };

/** Shown when an answer's acknowledgement never came; the resume shows it if it was stored. */
export const ANSWER_NOT_CONFIRMED = 'Your answer was not confirmed. Answer again.';

/**
 * An answer's problem once its question has closed: 'Answer again' no longer can be done. An
 * unconfirmed answer may still have been stored; the resume on reconnection shows it if so.
 */
export function closedText(problem: string): string {
  return problem === ANSWER_NOT_CONFIRMED
    ? 'Your answer was not confirmed before the question closed. If it arrived, it shows here once the connection is back.'
    : problem;
}

export const initialLiveState: LiveState = {
  connection: 'connecting',
  problem: null,
  stage: { kind: 'waiting' },
  joined: null,
  players: null,
  answers: {},
  sending: null,
  answerError: null,
  result: null,
};

function stageOfResume(state: LiveState, event: LiveResumeEvent, now: number): LiveStage {
  switch (event.phase) {
    case 'lobby':
      return { kind: 'lobby' };
    case 'countdown':
      // The server's time left, so a client's clock being off does not shift the countdown.
      return { kind: 'countdown', endsAt: now + Math.min(event.time_left, LIVE_COUNTDOWN_MS) };
    case 'question':
      // The question itself follows at once (a separate message). Until it comes, a game already
      // under way here keeps its screen (the question shown, the gap, the countdown): 'waiting' in
      // between took the panel out of its running state, and on a phone the tab bar flashed back.
      return state.stage.kind === 'question' ||
        state.stage.kind === 'between' ||
        state.stage.kind === 'countdown'
        ? state.stage
        : { kind: 'waiting' };
    case 'between':
      return state.stage.kind === 'between' && state.stage.last
        ? state.stage
        : { kind: 'between', last: event.last_question };
    case 'complete':
      return { kind: 'complete' };
  }
}

/** The later of two results (a repeat or an older one changes nothing). */
function newer(
  shown: QuestionResultEvent | null,
  incoming: QuestionResultEvent | null,
): QuestionResultEvent | null {
  if (!incoming) return shown;
  return !shown || incoming.i >= shown.i ? incoming : shown;
}

export function liveReducer(state: LiveState, action: LiveAction): LiveState {
  switch (action.type) {
    case 'connecting':
      return { ...state, connection: 'connecting', problem: null };
    case 'connected':
      return { ...state, connection: 'connected', problem: null };
    case 'connection-lost':
      return {
        ...state,
        connection: action.retrying ? 'reconnecting' : 'closed',
        problem: action.problem,
        // An answer not yet sent goes out from socket.io's buffer on reconnection; one already sent
        // gets 'ack-lost'.
        sending: action.retrying ? state.sending : null,
      };
    case 'refused':
      return { ...state, connection: 'refused', problem: action.problem, sending: null };
    case 'resume': {
      const answers: Record<number, LiveAnswer> = { ...state.answers };
      for (const a of action.event.answers) answers[a.question_i] = a;
      return {
        ...state,
        stage: stageOfResume(state, action.event, action.now),
        joined: action.event.in_lobby || state.joined === true,
        players: action.event.players,
        answers,
        // A resume in a later phase carries none: the one shown stays until a newer one comes.
        result: newer(state.result, action.event.last_result),
        // An answer whose acknowledgement was lost but which was stored is shown as stored.
        answerError: state.answerError && answers[state.answerError.i] ? null : state.answerError,
      };
    }
    case 'lobby':
      // A refusal does not undo an entry the resume already reported. A first entry counts itself
      // at once; the server's next count follows within seconds.
      return {
        ...state,
        joined: action.joined || state.joined === true,
        players:
          action.joined && state.joined !== true && state.players !== null
            ? state.players + 1
            : state.players,
      };
    case 'count':
      // A count taken before this player's entry landed (they are told it as they connect) is not
      // taken as it is: a player in the lobby never reads that nobody is.
      return { ...state, players: state.joined === true ? Math.max(1, action.count) : action.count };
    case 'game-start':
      if (state.stage.kind === 'countdown') return state;
      return { ...state, stage: { kind: 'countdown', endsAt: action.now + LIVE_COUNTDOWN_MS } };
    case 'countdown':
      return { ...state, stage: { kind: 'countdown', endsAt: action.now + action.secs * 1000 } };
    case 'question':
      if (state.stage.kind === 'complete') return state;
      return {
        ...state,
        stage: { kind: 'question', question: action.event, deadline: action.now + action.event.time_left },
        answerError: state.answerError?.i === action.event.i ? state.answerError : null,
      };
    case 'time-up':
      if (state.stage.kind !== 'question' || state.stage.question.i !== action.i) return state;
      return { ...state, stage: { kind: 'between', last: state.stage.question } };
    case 'result': {
      const result = newer(state.result, action.event);
      // Counts are not sent while questions run; each result counts the players (late joiners too).
      const players = result === action.event ? action.event.players : state.players;
      // A clock running slow may still show the question as open: it has closed.
      if (state.stage.kind === 'question' && state.stage.question.i === action.event.i) {
        return { ...state, result, players, stage: { kind: 'between', last: state.stage.question } };
      }
      return { ...state, result, players };
    }
    case 'complete':
      return { ...state, stage: { kind: 'complete' }, sending: null };
    case 'sending':
      return { ...state, sending: action.i, answerError: null };
    case 'ack-lost':
      return {
        ...state,
        sending: state.sending === action.i ? null : state.sending,
        answerError: state.answers[action.i]
          ? state.answerError
          : { i: action.i, text: ANSWER_NOT_CONFIRMED },
      };
    case 'stored-elsewhere': {
      const i = action.answer.question_i;
      // The server's copy is the first stored: a copy already here is the same one.
      if (state.answers[i]) return state;
      return {
        ...state,
        answers: { ...state.answers, [i]: action.answer },
        answerError: state.answerError?.i === i ? null : state.answerError,
      };
    }
    case 'ack': {
      const sending = state.sending === action.i ? null : state.sending;
      const stored = action.ack.answer;
      if (stored) {
        return { ...state, sending, answers: { ...state.answers, [stored.question_i]: stored } };
      }
      return {
        ...state,
        sending,
        answerError: action.ack.ok
          ? null
          : { i: action.i, text: action.ack.error ?? 'Your answer was not accepted' },
      };
    }
  }
}
