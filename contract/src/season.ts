import { z } from 'zod';

/**
 * Season files (hosting spec §4): one community and what it holds, in YAML or JSON. This schema
 * is the one description of the format: the server validates imports with it, the JSON Schema
 * served at /api/host/season.schema.json is generated from it, and the console can check with it.
 * The output of a parse equals its input but for defaults, so an exported file imports unchanged.
 */

// Control characters (but tab and newline in long texts) and lone surrogates: PostgreSQL cannot
// store NUL, and the others only ever come from broken files.
const oneLine = /^[^\p{Cc}\p{Cs}]*$/u;
const multiLine = /^(?:[^\p{Cc}\p{Cs}]|[\t\n\r])*$/u;

const line = (max: number, what: string) =>
  z
    .string()
    .min(1, `${what} is empty`)
    .max(max, `${what} is longer than ${max} characters`)
    .regex(oneLine, `${what} holds a control character`);

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
  .regex(oneLine, 'The image path holds a control character');

const categorySchema = line(40, 'A category');
const number = z.number().min(-1e9, 'At least -1000000000').max(1e9, 'At most 1000000000');

export const SECS_TO_ANSWER_DEFAULT = 20;
const secsToAnswer = z
  .number()
  .int('Whole seconds')
  .min(5, 'At least 5 seconds')
  .max(120, 'At most 120 seconds')
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
    unit: z.string().max(20, 'The unit is longer than 20 characters').regex(oneLine).default(''),
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

const instant = z.iso
  .datetime({ offset: true, message: 'A time with its zone, like 2026-12-01T18:00:00Z' })
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

const seriesSchema = z.strictObject({
  endpoint: seasonEndpointSchema,
  name: line(80, 'The series name'),
  description: z
    .string()
    .max(1000, 'The description is longer than 1000 characters')
    .regex(multiLine, 'The description holds a control character')
    .default(''),
  image: imageRefSchema.optional(),
  games: z.array(gameSchema).max(500, 'At most 500 games in a series').default([]),
});

const communitySchema = z.strictObject({
  endpoint: seasonEndpointSchema,
  name: line(80, 'The community name'),
  description: z
    .string()
    .max(1000, 'The description is longer than 1000 characters')
    .regex(multiLine, 'The description holds a control character')
    .default(''),
  image: imageRefSchema.optional(),
  listed: z.boolean().default(true).describe('Shown in community search'),
  categories: z
    .array(categorySchema)
    .max(10, 'At most 10 categories')
    .default([])
    .describe('Each an existing category, or one named in category_groups'),
});

export const seasonSchema = z.strictObject({
  $schema: z.string().max(500).optional(),
  community: communitySchema,
  category_groups: z
    .record(line(40, 'A group name'), z.array(categorySchema).max(50, 'At most 50 categories in a group'))
    .optional()
    .describe('Groups for categories that are new: group name -> category names'),
  series: z.array(seriesSchema).max(50, 'At most 50 series').default([]),
});

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

/** The rules one game breaks within itself: schedule order, teams, choices, linked votes, outcomes. */
function gameProblems(game: SeasonGame, path: (string | number)[]): SeasonProblem[] {
  const problems: SeasonProblem[] = [];
  const at = (p: (string | number)[], message: string) => problems.push({ path: p.join('.'), message });
  const open = Date.parse(game.schedule.open);
  const standby = Date.parse(game.schedule.standby);
  const complete = Date.parse(game.schedule.complete);
  if (standby < open) at([...path, 'schedule', 'standby'], 'standby must not be before open');
  if (complete < standby) at([...path, 'schedule', 'complete'], 'complete must not be before standby');
  const teams = new Set<string>();
  for (const [ti, team] of game.subcommunities.entries()) {
    if (teams.has(team)) at([...path, 'subcommunities', ti], `${team} is listed twice`);
    teams.add(team);
  }
  for (const [qi, q] of game.questions.entries()) {
    const qpath = [...path, 'questions', qi];
    if (q.kind === 'predict') {
      if (typeof q.outcome === 'number' && (q.outcome < q.slider.min || q.outcome > q.slider.max))
        at(
          [...qpath, 'outcome'],
          `The outcome must lie on the slider, from ${q.slider.min} to ${q.slider.max}`,
        );
      continue;
    }
    const texts = new Set<string>();
    for (const [ci, c] of q.choices.entries()) {
      if (texts.has(choiceText(c))) at([...qpath, 'choices', ci], `Choice ${choiceText(c)} is listed twice`);
      texts.add(choiceText(c));
    }
    if (q.kind === 'guess' && q.linked_vote !== undefined) {
      const linked = game.questions[q.linked_vote - 1];
      if (!linked) at([...qpath, 'linked_vote'], `This game has no question ${q.linked_vote}`);
      else if (linked.kind !== 'vote')
        at([...qpath, 'linked_vote'], `Question ${q.linked_vote} is a ${linked.kind}, not a vote`);
      // Points count the vote's answers per choice index: both must offer the same choices.
      else if (linked.choices.map(choiceText).join('\n') !== q.choices.map(choiceText).join('\n'))
        at(
          [...qpath, 'choices'],
          `A guess linked to question ${q.linked_vote} offers its choices, in its order`,
        );
    }
  }
  return problems;
}

/**
 * The rules a document breaks within itself (no database needed): duplicate endpoints and keys,
 * schedule order, linked votes, outcomes outside the slider, categories in two groups.
 */
export function seasonProblems(season: Season): SeasonProblem[] {
  const problems: SeasonProblem[] = [];
  const at = (path: (string | number)[], message: string) => problems.push({ path: path.join('.'), message });

  const grouped = new Map<string, string>();
  for (const [group, names] of Object.entries(season.category_groups ?? {})) {
    for (const [i, name] of names.entries()) {
      const first = grouped.get(name);
      if (first !== undefined && first !== group)
        at(['category_groups', group, i], `Category ${name} is also in group ${first}`);
      grouped.set(name, group);
    }
  }
  const categories = new Set<string>();
  for (const [i, c] of season.community.categories.entries()) {
    if (categories.has(c)) at(['community', 'categories', i], `Category ${c} is listed twice`);
    categories.add(c);
  }

  const seriesSeen = new Set<string>();
  for (const [si, series] of season.series.entries()) {
    if (seriesSeen.has(series.endpoint))
      at(['series', si, 'endpoint'], `Another series of this file has the endpoint ${series.endpoint}`);
    seriesSeen.add(series.endpoint);
    const keys = new Set<string>();
    const standbys = new Map<number, string>();
    for (const [gi, game] of series.games.entries()) {
      const path = ['series', si, 'games', gi];
      if (keys.has(game.key)) at([...path, 'key'], `Another game of this series has the key ${game.key}`);
      keys.add(game.key);
      const standby = Date.parse(game.schedule.standby);
      const clash = standbys.get(standby);
      if (clash !== undefined)
        at([...path, 'schedule', 'standby'], `Game ${clash} of this series has the same standby time`);
      standbys.set(standby, game.key);
      problems.push(...gameProblems(game, path));
    }
  }
  return problems;
}

const typeNames: Record<string, string> = {
  string: 'a text',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping of fields',
};

/** zod's wording is for developers; a host gets a sentence about the field. */
function problemOf(issue: z.core.$ZodIssue): SeasonProblem[] {
  const path = issue.path.map(String);
  const at = (p: string[], message: string): SeasonProblem => ({ path: p.join('.'), message });
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((k) => at([...path, k], `Unknown field ${k}`));
    case 'invalid_type': {
      const expected = typeNames[issue.expected] ?? issue.expected;
      return [at(path, issue.input === undefined ? `Missing: give ${expected}` : `Expected ${expected}`)];
    }
    case 'invalid_union': {
      const last = path[path.length - 1];
      if ('discriminator' in issue && issue.discriminator === 'kind')
        return [at(path, 'kind is one of vote, guess or predict')];
      if (last === 'outcome') return [at(path, "An outcome is a number, 'crowd' or 'pending'")];
      return [at(path, 'A choice is a text, or {text, image}')];
    }
    default:
      // Our schemas carry sentences for every other check; zod's fallbacks still name the field.
      return [at(path, issue.message)];
  }
}

/**
 * When the document as a whole does not parse, the games that do on their own are still checked
 * against the in-document rules, so one pass reports as much as it can.
 */
function soundGameProblems(value: unknown): SeasonProblem[] {
  const series = (value as { series?: unknown } | null)?.series;
  if (!Array.isArray(series)) return [];
  return series.flatMap((s: unknown, si) => {
    const games = (s as { games?: unknown } | null)?.games;
    if (!Array.isArray(games)) return [];
    return games.flatMap((g: unknown, gi) => {
      const game = gameSchema.safeParse(g);
      return game.success ? gameProblems(game.data, ['series', si, 'games', gi]) : [];
    });
  });
}

/**
 * Checks a parsed YAML or JSON value against the format and its in-document rules. Every problem
 * is reported, each at its path; `season` is set only when there are none.
 */
export function parseSeason(value: unknown): { season?: Season; problems: SeasonProblem[] } {
  const result = seasonSchema.safeParse(value, { reportInput: true });
  if (!result.success)
    return { problems: [...result.error.issues.flatMap(problemOf), ...soundGameProblems(value)] };
  const problems = seasonProblems(result.data);
  return problems.length > 0 ? { problems } : { season: result.data, problems };
}
