import { z } from 'zod';
import type { Game, LiveAnswer } from './games';
// The answer's shape lives in games.ts (the answer PUT extends it), so live.ts depends on games.ts
// (and the text schemas) only.
import {
  gameSchema,
  gameStateSchema,
  liveAnswerSchema,
  questionItemSchema,
  questionKindSchema,
  uuidSchema,
} from './games';
import { plainText } from './text';

/** Socket namespaces and event names: written once, used by server and web. */
export const DATA_NAMESPACE = '/data';
export const gameNamespace = (uuid: string) => `/game/${uuid}`;
export const GAME_NAMESPACE_PATTERN = /^\/game\/[0-9a-f-]{36}$/;

export const gameStateEventSchema = z.object({ game: z.string(), state: gameStateSchema });
export type GameStateEvent = z.infer<typeof gameStateEventSchema>;

export const watchGameSchema = uuidSchema;

export interface DataServerToClient {
  game_state: (event: GameStateEvent) => void;
}
export interface DataClientToServer {
  game: (uuid: string, ack: (game: Game | null) => void) => void;
}

export const liveQuestionSchema = z.object({
  question: questionItemSchema.shape.question,
  type: questionItemSchema.shape.type,
  asked_at: z.number(),
  secs_to_answer: z.number(),
  i: z.number().int(),
});
export type LiveQuestion = z.infer<typeof liveQuestionSchema>;

/** The live question as sent: `time_left` (ms) lets a client with a skewed clock count down right. */
export const liveQuestionEventSchema = liveQuestionSchema.extend({ time_left: z.number().min(0) });
export type LiveQuestionEvent = z.infer<typeof liveQuestionEventSchema>;

export const liveAnswerAckSchema = z.object({
  ok: z.boolean(),
  /** Why an answer did not count ('too late', 'not in the lobby', ...). */
  error: z.string().optional(),
  /** The stored answer for this question (the first one when a repeat arrives). */
  answer: liveAnswerSchema.optional(),
});
export type LiveAnswerAck = z.infer<typeof liveAnswerAckSchema>;

/**
 * What every player sees once a live question has closed (its deadline and the latency allowance
 * passed): never sent earlier, as it carries the right answer (DESIGN §2).
 */
export const questionOutcomeSchema = z.object({
  i: z.number().int().min(0),
  type: questionKindSchema,
  /** Players in the game (the N of 'rank r of N'). */
  players: z.number().int().min(0),
  /** How many answered this question. */
  answered: z.number().int().min(0),
  /**
   * Answers per choice index that decide the question: a vote's own split (the crowd's); a guess's
   * linked vote when it has one ('votes'), else the guesses themselves. Null for a predict, or while
   * it would give a later question's answer away (a vote whose linked guess is still to come).
   */
  split: z.object({ of: z.enum(['votes', 'guesses']), counts: z.array(z.number().int().min(0)) }).nullable(),
  /** The top choice(s) by `split`: the crowd's favourite of a vote, the answer of a guess (ties: all). */
  top_choices: z.array(z.number().int().min(0)),
  /** A predict's truth: the host's outcome or the crowd's median; null when not known yet. */
  truth: z.number().nullable(),
  /**
   * The answer is shown later: a predict whose outcome a host enters after the game, a vote whose
   * linked guess is still to come, a guess whose linked vote comes after it. Its points count then.
   */
  later: z.boolean(),
  /** The host voided it (hosting spec §3): 0 points for everyone, shown as voided. Absent otherwise. */
  voided: z.literal(true).optional(),
});
export type QuestionOutcome = z.infer<typeof questionOutcomeSchema>;

/** One player's standing after a question: points for it, running score, rank of `players`. */
export const liveStandingSchema = z.object({
  /** Their answer as scored (null: none), so another device of theirs shows it too. */
  answer: liveAnswerSchema.nullable(),
  /** Null when its points come later (see `later`). */
  points: z.number().int().min(0).nullable(),
  score: z.number().int().min(0),
  rank: z.number().int().min(1),
});
export type LiveStanding = z.infer<typeof liveStandingSchema>;

/** `question_result`: the common outcome and, for a player in the game, their own standing (null: watching). */
export const questionResultEventSchema = questionOutcomeSchema.extend({ you: liveStandingSchema.nullable() });
export type QuestionResultEvent = z.infer<typeof questionResultEventSchema>;

export const livePhaseSchema = z.enum(['lobby', 'countdown', 'question', 'between', 'complete']);

/** Sent on (re)connection while a game is under way: where the game is and the player's answers. */
export const liveResumeEventSchema = z.object({
  phase: livePhaseSchema,
  in_lobby: z.boolean(),
  answers: z.array(liveAnswerSchema),
  players: z.number().int().min(0),
  /** ms until the current phase (countdown, question, gap) ends by the server's clock; 0 otherwise. */
  time_left: z.number().min(0),
  /** In the gap between questions: the question that just closed (its summary stays on screen). */
  last_question: liveQuestionEventSchema.nullable(),
  /** The latest closed question's result, once out (between questions and after the last one). */
  last_result: questionResultEventSchema.nullable(),
});
export type LiveResumeEvent = z.infer<typeof liveResumeEventSchema>;

export const liveCountdownEventSchema = z.object({ secs: z.number().int().min(0) });
export const lobbyCountEventSchema = z.object({ count: z.number().int().min(0) });

export interface GameServerToClient {
  game_start: () => void;
  countdown: (event: z.infer<typeof liveCountdownEventSchema>) => void;
  question: (event: LiveQuestionEvent) => void;
  /** After each question closes, to each player: its outcome, with their points, score and rank. */
  question_result: (event: QuestionResultEvent) => void;
  game_complete: () => void;
  lobby_count: (event: z.infer<typeof lobbyCountEventSchema>) => void;
  resume: (event: LiveResumeEvent) => void;
  /** A round-trip probe at connection: the client acknowledges at once, so the server can measure its delay. */
  latency: (ack: () => void) => void;
}

export interface GameClientToServer {
  lobby: (ack: (joined: boolean) => void) => void;
  /**
   * Out of the lobby again before the game starts: the player's entry goes (true: not in it now;
   * false once the game has started, when an entry stays).
   */
  leave_lobby: (ack: (left: boolean) => void) => void;
  answer: (answer: LiveAnswer, ack: (result: LiveAnswerAck) => void) => void;
}

/** The handshake query of /game/{uuid}: the subcommunity the player represents (an endpoint). */
export const gameHandshakeQuerySchema = z.object({
  subcommunity: plainText(64).optional(),
  /** The account the player's tab shows (ACCOUNT_HEADER's value), '' when it has none. */
  account: z
    .string()
    .regex(/^\d{0,15}$/)
    .optional(),
});

/**
 * A client-to-server event at run time: the schemas of its arguments before the acknowledgement,
 * and of the acknowledgement the server answers with. The interfaces above type the code; these
 * tables let tests walk every event (the socket fuzz test throws hostile payloads at each).
 */
export interface ClientEventDef {
  args: readonly z.ZodType[];
  ack: z.ZodType;
}

// `satisfies Record<keyof …>`: an event added to an interface and not here does not compile.
export const dataClientEvents = {
  game: { args: [watchGameSchema], ack: gameSchema.nullable() },
} as const satisfies Record<keyof DataClientToServer, ClientEventDef>;

export const gameClientEvents = {
  lobby: { args: [], ack: z.boolean() },
  leave_lobby: { args: [], ack: z.boolean() },
  answer: { args: [liveAnswerSchema], ack: liveAnswerAckSchema },
} as const satisfies Record<keyof GameClientToServer, ClientEventDef>;

/** Every namespace's client-to-server events; `/game/{uuid}` stands for each game's namespace. */
export const clientEventTables = [
  { namespace: DATA_NAMESPACE, events: dataClientEvents },
  { namespace: '/game/{uuid}', events: gameClientEvents },
] as const satisfies readonly { namespace: string; events: Record<string, ClientEventDef> }[];
