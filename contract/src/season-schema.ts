import { z } from 'zod';
import { NO_DIRECTION_CONTROL } from './text';

/**
 * Season files (hosting spec §4): one community and what it holds, in YAML or JSON. This schema
 * is the one description of the format: the server validates imports with it, the JSON Schema
 * served at /api/host/season.schema.json is generated from it, and the console can check with it.
 * The output of a parse equals its input but for defaults, so an exported file imports unchanged.
 */

// Control characters (but tab and newline in long texts) and lone surrogates: PostgreSQL cannot
// store NUL, and the others only ever come from broken files. Text-direction controls would show
// players a name turned around (text.ts), as the app's other texts refuse them.
const oneLine = /^[^\p{Cc}\p{Cs}]*$/u;
const multiLine = /^(?:[^\p{Cc}\p{Cs}]|[\t\n\r])*$/u;
const turnsNothing = (what: string) =>
  [NO_DIRECTION_CONTROL, `${what} holds an invisible text-direction character`] as const;

/** Something to read: a name of spaces alone shows as nothing (a community page with no name). */
const notBlank = (s: string) => s.trim() !== '';

const line = (max: number, what: string) =>
  z
    .string()
    .min(1, `${what} is empty`)
    .max(max, `${what} is longer than ${max} characters`)
    .regex(oneLine, `${what} holds a control character`)
    .regex(...turnsNothing(what))
    .refine((s) => s === '' || notBlank(s), `${what} is only spaces`);

export const SEASON_ENDPOINT_PATTERN = /^[a-z0-9-]{3,40}$/;
export const seasonEndpointSchema = z
  .string()
  .regex(SEASON_ENDPOINT_PATTERN, 'An endpoint is 3 to 40 characters of a-z, 0-9 and -');

export const GAME_KEY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const gameKeySchema = z
  .string()
  .regex(
    GAME_KEY_PATTERN,
    'A game key is 1 to 40 characters of a-z, 0-9, - and _, starting with a letter or digit',
  );

/** A path inside the .zip bundle (`images/park.jpg`), or the name of an image already uploaded. */
const imageRefSchema = z
  .string()
  .min(1, 'The image is empty')
  .max(200, 'The image path is longer than 200 characters')
  .regex(oneLine, 'The image path holds a control character')
  .regex(...turnsNothing('The image path'));

const categorySchema = line(40, 'A category');
const number = z.number().min(-1e9, 'At least -1000000000').max(1e9, 'At most 1000000000');

export const SECS_TO_ANSWER_DEFAULT = 20;
/** Seconds to answer a question of a live game (hosting spec §4). */
export const SECS_TO_ANSWER_MIN = 5;
export const SECS_TO_ANSWER_MAX = 120;
const secsToAnswer = z
  .number()
  .int('Whole seconds')
  .min(SECS_TO_ANSWER_MIN, `At least ${SECS_TO_ANSWER_MIN} seconds`)
  .max(SECS_TO_ANSWER_MAX, `At most ${SECS_TO_ANSWER_MAX} seconds`)
  .default(SECS_TO_ANSWER_DEFAULT)
  .describe('Seconds to answer in a live game (5-120, default 20)');

const choiceSchema = z.union([
  line(120, 'A choice'),
  z.strictObject({ text: line(120, 'A choice'), image: imageRefSchema.optional() }),
]);

const choicesSchema = z
  .array(choiceSchema)
  .min(2, 'Give 2 to 12 choices')
  .max(12, 'Give 2 to 12 choices')
  .describe('2 to 12 choices: a text, or {text, image}');

const sliderSchema = z
  .strictObject({
    min: number,
    max: number,
    step: z.number().positive('The step must be above 0').max(1e9, 'At most 1000000000'),
    unit: z
      .string()
      .max(20, 'The unit is longer than 20 characters')
      .regex(oneLine)
      .regex(...turnsNothing('The unit'))
      .refine((u) => u === '' || notBlank(u), 'The unit is only spaces: leave it empty or name one')
      .default(''),
  })
  .superRefine((s, ctx) => {
    if (s.max <= s.min) ctx.addIssue({ code: 'custom', path: ['max'], message: 'max must be above min' });
    else if (s.step > 0 && (s.max - s.min) / s.step > 100_000)
      ctx.addIssue({ code: 'custom', path: ['step'], message: 'The step is too small for the range' });
  });

const questionBase = {
  text: line(300, 'The question text'),
  image: imageRefSchema.optional(),
  secs_to_answer: secsToAnswer,
  voided: z
    .boolean()
    .optional()
    .describe(
      'Voided by a host once answers closed: it scores 0 for everyone. Exported, so that a copy keeps it; a file without it leaves a void as it is',
    ),
};

export const seasonOutcomeSchema = z
  .union([number, z.literal('crowd'), z.literal('pending')])
  .describe("A predict's truth: a number, 'crowd' (the median of the answers) or 'pending' (entered later)");

const questionSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('vote'), ...questionBase, choices: choicesSchema }),
  z.strictObject({
    kind: z.literal('guess'),
    ...questionBase,
    choices: choicesSchema,
    linked_vote: z
      .number()
      .int('The number of a question: 1, 2, ...')
      .min(1, 'Questions are numbered from 1')
      .optional()
      .describe(
        'The 1-based number of the vote question of this game whose answers decide the most popular choice',
      ),
  }),
  z.strictObject({
    kind: z.literal('predict'),
    ...questionBase,
    slider: sliderSchema,
    outcome: seasonOutcomeSchema,
  }),
]);

/** Instants a schedule may name (UTC): the database and the pg driver misread years before 100. */
const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(10000, 0, 1) - 1000;
/** Real zones are at most 14 hours from UTC; PostgreSQL refuses more than 15:59. */
const zoneTooFar = (text: string) => {
  const offset = /([+-])(\d{2}):?(\d{2})$/.exec(text);
  return offset !== null && Number(offset[2]) * 60 + Number(offset[3]) > 14 * 60;
};

const instant = z.iso
  .datetime({ offset: true, message: 'A time with its zone, like 2026-12-01T18:00:00Z' })
  .refine((t) => !zoneTooFar(t), 'A zone at most 14 hours from UTC, like +02:00')
  .refine((t) => {
    const at = Date.parse(t);
    return at >= EARLIEST && at <= LATEST;
  }, 'A time from the year 2000 to 9999')
  .describe('ISO 8601 with a zone, like 2026-12-01T18:00:00Z');

const gameSchema = z.strictObject({
  key: gameKeySchema.describe('Unique within the series; the game keeps its uuid across imports'),
  name: line(120, 'The game name').optional(),
  image: imageRefSchema.optional(),
  synchronous: z.boolean().default(false),
  speed_bonus: z.boolean().default(false),
  schedule: z.strictObject({ open: instant, standby: instant, complete: instant }),
  subcommunities: z
    .array(seasonEndpointSchema)
    .max(50, 'At most 50 subcommunities')
    .default([])
    .describe('Endpoints of existing communities whose members play as teams'),
  questions: z.array(questionSchema).min(1, 'A game needs a question').max(50, 'At most 50 questions'),
});

/**
 * A series' or a community's description: a few paragraphs. Left out, like their image, listing and
 * categories, it keeps what is stored (empty for a new one): a file that names a community only to
 * add a series to it must not wipe its settings. An empty string clears it.
 */
const descriptionSchema = z
  .string()
  .max(1000, 'The description is longer than 1000 characters')
  .regex(multiLine, 'The description holds a control character')
  .regex(...turnsNothing('The description'))
  .optional();

/** A community's or a series' picture: left out, it keeps the stored one; null, the default. */
const settingsImageSchema = imageRefSchema.nullable().optional();

const seriesSchema = z.strictObject({
  endpoint: seasonEndpointSchema,
  name: line(80, 'The series name'),
  description: descriptionSchema,
  image: settingsImageSchema,
  games: z.array(gameSchema).max(500, 'At most 500 games in a series').default([]),
});

const communitySchema = z.strictObject({
  endpoint: seasonEndpointSchema,
  name: line(80, 'The community name'),
  description: descriptionSchema,
  image: settingsImageSchema,
  listed: z.boolean().optional().describe('Shown in community search (a new community: true)'),
  categories: z
    .array(categorySchema)
    .max(10, 'At most 10 categories')
    .optional()
    .describe('Each an existing category, or one named in category_groups'),
});

const groupNameSchema = line(40, 'A group name');
const groupSchema = z.array(categorySchema).max(50, 'At most 50 categories in a group');

export const seasonSchema = z.strictObject({
  $schema: z.string().max(500).optional(),
  community: communitySchema,
  category_groups: z
    .preprocess(
      (value, ctx) => {
        // A name every object has (__proto__, constructor…) is read as the object's own machinery
        // and the group was lost without a word: refused by name instead.
        if (value && typeof value === 'object' && !Array.isArray(value)) {
          for (const name of Object.keys(value)) {
            if (name in Object.prototype) {
              ctx.addIssue({ code: 'custom', message: `A group may not be called ${name}`, path: [name] });
            }
          }
        }
        return value;
      },
      z.record(groupNameSchema, groupSchema),
    )
    .optional()
    .describe('Groups for categories that are new: group name -> category names'),
  series: z.array(seriesSchema).max(50, 'At most 50 series').default([]),
});

/**
 * The parts of a document that are checked on their own when the whole does not parse (see
 * season-parts.ts): the community block, each category group, each series' own fields, each game.
 */
export const seasonPartSchemas = {
  community: communitySchema,
  groupName: groupNameSchema,
  group: groupSchema,
  seriesFields: seriesSchema.omit({ games: true }),
  game: gameSchema,
  // A game that does not parse whole is read field by field and question by question.
  gameKey: gameSchema.shape.key,
  synchronous: gameSchema.shape.synchronous,
  schedule: gameSchema.shape.schedule,
  subcommunities: gameSchema.shape.subcommunities,
  question: questionSchema,
};

/** A season document as written (defaults optional). */
export type SeasonInput = z.input<typeof seasonSchema>;
/** A season document after parsing (defaults filled in). */
export type Season = z.output<typeof seasonSchema>;
export type SeasonSeries = Season['series'][number];
export type SeasonGame = SeasonSeries['games'][number];
export type SeasonQuestion = SeasonGame['questions'][number];
export type SeasonChoice = z.output<typeof choiceSchema>;
/** A game and a question as written in a file (what export writes). */
export type SeasonGameInput = z.input<typeof gameSchema>;
export type SeasonQuestionInput = z.input<typeof questionSchema>;
export type Outcome = z.output<typeof seasonOutcomeSchema>;

/** A season document as written (what export answers): checked by the schema, typed as input. */
export const seasonFileSchema = z.custom<SeasonInput>(
  (value) => seasonSchema.safeParse(value).success,
  'Not a season document',
);

/** The JSON Schema of the format (input side: defaulted fields are optional). */
export function seasonJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(seasonSchema, { io: 'input', target: 'draft-2020-12' }),
    title: 'Hunch season file',
    description: 'One community and its series, games and questions (hosting spec §4).',
  };
}

/** One problem of a document, at its path (`series.0.games.2.questions.1.slider.max`). */
export const seasonProblemSchema = z.object({
  path: z.string(),
  message: z.string(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
});
export type SeasonProblem = z.infer<typeof seasonProblemSchema>;
export const seasonProblemsSchema = z.object({ errors: z.array(seasonProblemSchema) });

const counts = z.object({
  communities: z.number().int(),
  series: z.number().int(),
  games: z.number().int(),
  questions: z.number().int(),
});
export type SeasonCounts = z.infer<typeof counts>;

export const seasonImportResultSchema = z.object({
  created: counts,
  updated: counts,
  unchanged: counts,
  /** Every game of the file; a game a dry run would create has no uuid yet. */
  games: z.array(z.object({ series: z.string(), key: z.string(), uuid: z.string().nullable() })),
  dry_run: z.boolean(),
});
export type SeasonImportResult = z.infer<typeof seasonImportResultSchema>;

export const choiceText = (c: SeasonChoice): string => (typeof c === 'string' ? c : c.text);
