import { z } from 'zod';
import { plainText } from './text';

export const gameStates = ['closed', 'open', 'standby', 'results', 'complete'] as const;
export const gameStateSchema = z.enum(gameStates);
export type GameState = z.infer<typeof gameStateSchema>;

export const gameStatuses = ['ongoing', 'upcoming', 'recent', 'past'] as const;
export const gameStatusSchema = z.enum(gameStatuses);
export type GameStatus = z.infer<typeof gameStatusSchema>;

export const questionKinds = ['vote', 'guess', 'predict'] as const;
export const questionKindSchema = z.enum(questionKinds);
export type QuestionKind = z.infer<typeof questionKindSchema>;

export const uuidSchema = z.string().uuid('Unknown game');

export const scheduleSchema = z.object({
  open: z.string(),
  standby: z.string(),
  complete: z.string(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

export const seriesRefSchema = z.object({ endpoint: z.string(), name: z.string(), image: z.string() });

export const gameSchema = z.object({
  uuid: z.string(),
  /** Falls back to the series name when the game has none of its own. */
  name: z.string(),
  image: z.string(),
  series: seriesRefSchema,
  community: z.object({ endpoint: z.string(), name: z.string() }),
  schedule: scheduleSchema,
  synchronous: z.boolean(),
  state: gameStateSchema,
  status: gameStatusSchema,
  participants: z.number().int(),
  /** endpoint -> name; empty when the game has no subcommunities. */
  subcommunities: z.record(z.string(), z.string()),
  groups: z.object({ age: z.array(z.string()), geo: z.array(z.string()), community: z.array(z.string()) }),
  /** Number of questions. */
  question_count: z.number().int(),
  /**
   * In `results` past schedule.complete: the texts of the predict questions whose outcome the host
   * has yet to enter (hosting spec §3). Empty otherwise.
   */
  waiting_for: z.array(z.string()),
});
export type Game = z.infer<typeof gameSchema>;

export const seriesSchema = z.object({
  endpoint: z.string(),
  name: z.string(),
  image: z.string(),
  description: z.string(),
  community: z.object({ endpoint: z.string(), name: z.string() }),
  games: z.array(gameSchema),
});
export type Series = z.infer<typeof seriesSchema>;

export const choiceSchema = z.object({ text: z.string(), image: z.string().nullable(), i: z.number().int() });
export const sliderSchema = z.object({
  min: z.number(),
  max: z.number(),
  step: z.number().positive(),
  unit: z.string(),
});
export type Slider = z.infer<typeof sliderSchema>;

export const questionItemSchema = z.object({
  type: questionKindSchema,
  i: z.number().int(),
  question: z.object({
    text: z.string(),
    image: z.string().nullable(),
    choices: z.array(choiceSchema),
    slider: sliderSchema.nullable(),
  }),
  /** Voided by the host: it scores 0 for everyone (hosting spec §3). */
  voided: z.boolean(),
});
export type QuestionItem = z.infer<typeof questionItemSchema>;

export const savedAnswerSchema = z.object({
  choice: z.string().nullable(),
  choice_i: z.number().int().nullable(),
  number_answer: z.number().nullable(),
});
export type SavedAnswer = z.infer<typeof savedAnswerSchema>;

export const participationSchema = z.object({
  entry: z.object({
    subcommunity: z.object({ endpoint: z.string(), name: z.string() }).nullable(),
    rank: z.number().int().nullable(),
    score: z.number().nullable(),
    questions: z.array(questionItemSchema),
  }),
  /** Keyed by question index. */
  answers: z.record(z.string(), savedAnswerSchema),
});
export type Participation = z.infer<typeof participationSchema>;

export const enterGameSchema = z.object({ subcommunity: plainText(64).nullable().optional() });

/** One answer to one question: a choice or a number. Live games send it as is (live.ts). */
export const liveAnswerSchema = z.object({
  question_i: z.number().int().min(0),
  choice_i: z.number().int().min(0).nullable(),
  number_answer: z.number().finite().nullable(),
});
export type LiveAnswer = z.infer<typeof liveAnswerSchema>;

/** The answer PUT of a game played at one's own pace: an answer, and the team it counts for. */
export const answerPayloadSchema = liveAnswerSchema.extend({
  subcommunity: plainText(64).nullable().optional(),
});
export type AnswerPayload = z.infer<typeof answerPayloadSchema>;
export const answerResultSchema = z.object({
  choice_i: z.number().int().nullable(),
  number_answer: z.number().nullable(),
});

export const playerRowSchema = z.object({
  img: z.string(),
  /** Head-to-heads against the viewer: negative 'N on you', positive 'N below you'; null for the viewer. */
  hths: z.number().int().nullable(),
  pvt: z.boolean(),
  s: z.number(),
  r: z.number().int(),
  p: z.number(),
  cr: z.number().int().nullable(),
  /** Subcommunity endpoint the player represents, if any. */
  c: z.string().nullable(),
  /** The row's place on the board (1-based; ties share `r` but not `pos`): its page is ⌈pos / page size⌉. */
  pos: z.number().int(),
});
export type PlayerRow = z.infer<typeof playerRowSchema>;

export const communityRowSchema = z.object({
  name: z.string(),
  img: z.string(),
  a: z.number(),
  r: z.number().int(),
  c: z.number().int(),
});
export type CommunityRow = z.infer<typeof communityRowSchema>;

export const leaderboardQuerySchema = z.object({
  p: z.coerce.number().int('Invalid page').min(1, 'Invalid page').max(1_000_000, 'Invalid page').default(1),
  bycommunity: z.enum(['0', '1']).optional(),
  /** me=1: the page holding the viewer's own row, whatever p says ('Jump to my row'). */
  me: z.enum(['0', '1']).optional(),
});

export const rangeBucketSchema = z.object({
  min: z.number(),
  max: z.number(),
  ct: z.number().int(),
  per: z.number(),
});
export const questionStatsSchema = z.object({
  /** choice text -> count and percent; null when the group is too small to show. */
  choices: z.record(z.string(), z.object({ ct: z.number().int(), per: z.number() })),
  ranges: z.array(rangeBucketSchema),
  correct_choices: z.array(z.string()),
  correct_numbers: z.array(z.number()),
  /**
   * Answers counted; 0 with withheld=true when the filtered group is withheld: too few players, or
   * others withheld with it so that subtraction cannot single a small group out (decision 019).
   */
  n: z.number().int(),
  withheld: z.boolean(),
});
export type QuestionStats = z.infer<typeof questionStatsSchema>;

export const questionStatsResponseSchema = z.object({
  questions: z.array(questionItemSchema),
  stats: z.array(questionStatsSchema),
});
export const statsQuerySchema = z.object({
  age: plainText(20).optional(),
  geo: plainText(100).optional(),
  community: plainText(64).optional(),
});

export const communityRankSchema = z.object({
  s: z.number(),
  a: z.number(),
  r: z.number().int().nullable(),
  p: z.number().nullable(),
  games: z.number().int(),
  /** Players ranked in the community ('rank 368 of 1,204'); 0 before any completed game. */
  players: z.number().int(),
});
export type CommunityRank = z.infer<typeof communityRankSchema>;

export const playGamesSchema = z.array(gameSchema);

/** One question of the viewer's own result: what they answered and the points it gave. */
export const myAnswerSchema = z.object({
  question_i: z.number().int(),
  choice_i: z.number().int().nullable(),
  /** The chosen choice's text; null for a number answer. */
  choice: z.string().nullable(),
  number_answer: z.number().nullable(),
  /** As scoring counted them (DESIGN §2); 0 for a vote or a voided question. */
  points: z.number().int(),
});
export type MyAnswer = z.infer<typeof myAnswerSchema>;

/** GET /api/my_result/{uuid}: the viewer's score, rank of N and points per question they answered. */
export const myResultSchema = z.object({
  score: z.number(),
  rank: z.number().int(),
  /** Players ranked in the game (the N of 'rank r of N'). */
  players: z.number().int(),
  percentile: z.number(),
  answers: z.array(myAnswerSchema),
});
export type MyResult = z.infer<typeof myResultSchema>;

/** One completed game of a player's history (profile): game, date, score and rank of N. */
export const historyGameSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  series: z.object({ endpoint: z.string(), name: z.string() }),
  community: z.object({ endpoint: z.string(), name: z.string() }),
  /** schedule.complete: when the game ended (ISO 8601). */
  complete: z.string(),
  score: z.number(),
  rank: z.number().int(),
  players: z.number().int(),
});
export type HistoryGame = z.infer<typeof historyGameSchema>;

/** Games per page of a player's history. */
export const GAME_HISTORY_PAGE_SIZE = 20;

export const gameHistoryQuerySchema = z.object({
  /** Whose history: the viewer's own when absent. */
  u: plainText(100, 'Unknown player').optional(),
  p: z.coerce.number().int('Invalid page').min(1, 'Invalid page').max(100_000, 'Invalid page').default(1),
});

export const gameHistorySchema = z.object({
  /** Newest first, one page of them. */
  games: z.array(historyGameSchema),
  /** More (older) games on the next page. */
  more: z.boolean(),
});
export type GameHistory = z.infer<typeof gameHistorySchema>;
