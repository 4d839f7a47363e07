import { z } from 'zod';
import type { Game, LiveAnswer } from './games';
// The answer's shape lives in games.ts (the answer PUT extends it), so live.ts depends on games.ts
// (and the text schemas) only.
import { gameSchema, gameStateSchema, liveAnswerSchema, questionItemSchema, uuidSchema } from './games';
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
});
export type LiveResumeEvent = z.infer<typeof liveResumeEventSchema>;

export const liveCountdownEventSchema = z.object({ secs: z.number().int().min(0) });
export const lobbyCountEventSchema = z.object({ count: z.number().int().min(0) });

export interface GameServerToClient {
  game_start: () => void;
  countdown: (event: z.infer<typeof liveCountdownEventSchema>) => void;
  question: (event: LiveQuestionEvent) => void;
  game_complete: () => void;
  lobby_count: (event: z.infer<typeof lobbyCountEventSchema>) => void;
  resume: (event: LiveResumeEvent) => void;
  /** A round-trip probe at connection: the client acknowledges at once, so the server can measure its delay. */
  latency: (ack: () => void) => void;
}

export interface GameClientToServer {
  lobby: (ack: (joined: boolean) => void) => void;
  answer: (answer: LiveAnswer, ack: (result: LiveAnswerAck) => void) => void;
}

/** The handshake query of /game/{uuid}: the subcommunity the player represents (an endpoint). */
export const gameHandshakeQuerySchema = z.object({ subcommunity: plainText(64).optional() });

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
  answer: { args: [liveAnswerSchema], ack: liveAnswerAckSchema },
} as const satisfies Record<keyof GameClientToServer, ClientEventDef>;

/** Every namespace's client-to-server events; `/game/{uuid}` stands for each game's namespace. */
export const clientEventTables = [
  { namespace: DATA_NAMESPACE, events: dataClientEvents },
  { namespace: '/game/{uuid}', events: gameClientEvents },
] as const satisfies readonly { namespace: string; events: Record<string, ClientEventDef> }[];
