import {
  type Season,
  type SeasonGame,
  type SeasonQuestion,
  type SeasonSeries,
  seasonPartSchemas,
} from './season-schema';

export type SeasonCommunity = Season['community'];
export type SeasonSeriesFields = Omit<SeasonSeries, 'games'>;

/**
 * What of a document the checks beyond its shape can read: all of it when it parses, else each
 * part that parses on its own (the community block, each category group, each series' own fields,
 * each game). A part that does not parse is left out, so that it is reported by its shape only and
 * no check reports what merely follows from it (a guess linked to an unreadable vote, say).
 */
export interface SeasonParts {
  /** The community block, when it parses. */
  community?: SeasonCommunity;
  /** The category groups that parse, in the document's order. */
  groups: [name: string, categories: string[]][];
  /** Every category group parses (or none is given): a category that none names is unknown. */
  allGroups: boolean;
  series: SeriesParts[];
}

/**
 * What the checks within a game read of it: a whole game, or the fields and questions of one that
 * does not parse whole, each read on its own. A question that does not parse is null: the checks
 * that would lean on it (a guess linked to it) are skipped, as its shape is reported.
 */
export interface GameParts {
  key?: string;
  synchronous?: boolean;
  schedule?: SeasonGame['schedule'];
  subcommunities?: string[];
  questions: readonly (SeasonQuestion | null)[];
}

export interface SeriesParts {
  /** Its index in the document's series. */
  index: number;
  /** The series' own fields (all but its games), when they parse. */
  fields?: SeasonSeriesFields;
  /** The games that parse, each with its index in the series. */
  games: { index: number; game: SeasonGame }[];
  /** The games that do not parse whole, read in parts, so that one pass reports every problem. */
  brokenGames: { index: number; game: GameParts }[];
  /**
   * The key of every game the series lists, whether the game parses or not; undefined when one
   * cannot be read (nor then which stored games the file leaves out).
   */
  keys?: string[];
}

/** The parts of a document that parses whole. */
export function partsOfSeason(season: Season): SeasonParts {
  return {
    community: season.community,
    groups: Object.entries(season.category_groups ?? {}),
    allGroups: true,
    series: season.series.map(({ games, ...fields }, index) => ({
      index,
      fields,
      games: games.map((game, gi) => ({ index: gi, game })),
      brokenGames: [],
      keys: games.map((g) => g.key),
    })),
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A field the document itself holds (never one inherited, like `constructor`). */
const own = (v: unknown, key: string): unknown => (isRecord(v) && Object.hasOwn(v, key) ? v[key] : undefined);

/** The parts of a game that does not parse whole, each read on its own. */
function readGameParts(raw: unknown): GameParts {
  const part = <T>(
    schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
    key: string,
  ) => {
    const read = schema.safeParse(own(raw, key));
    return read.success ? read.data : undefined;
  };
  const questions = own(raw, 'questions');
  return {
    key: part(seasonPartSchemas.gameKey, 'key'),
    synchronous: part(seasonPartSchemas.synchronous, 'synchronous'),
    schedule: part(seasonPartSchemas.schedule, 'schedule'),
    subcommunities: part(seasonPartSchemas.subcommunities, 'subcommunities'),
    questions: Array.isArray(questions)
      ? questions.map((q: unknown) => {
          const read = seasonPartSchemas.question.safeParse(q);
          return read.success ? read.data : null;
        })
      : [],
  };
}

function readSeries(raw: unknown, index: number): SeriesParts {
  if (!isRecord(raw)) return { index, games: [], brokenGames: [] };
  const { games: rawGames = [], ...rest } = raw;
  const fields = seasonPartSchemas.seriesFields.safeParse(rest);
  const list = Array.isArray(rawGames) ? rawGames : [];
  const games: SeriesParts['games'] = [];
  const brokenGames: SeriesParts['brokenGames'] = [];
  for (const [gi, g] of list.entries()) {
    const game = seasonPartSchemas.game.safeParse(g);
    if (game.success) games.push({ index: gi, game: game.data });
    else if (isRecord(g)) brokenGames.push({ index: gi, game: readGameParts(g) });
  }
  const keys = list.map((g: unknown) => own(g, 'key'));
  return {
    index,
    ...(fields.success && { fields: fields.data }),
    games,
    brokenGames,
    ...(Array.isArray(rawGames) && keys.every((k) => typeof k === 'string') && { keys: keys as string[] }),
  };
}

/** The parts of a document that does not parse whole, each read on its own. */
export function readSeasonParts(value: unknown): SeasonParts {
  const community = seasonPartSchemas.community.safeParse(own(value, 'community'));
  const rawGroups = own(value, 'category_groups');
  const groups: SeasonParts['groups'] = [];
  let allGroups = rawGroups === undefined || isRecord(rawGroups);
  if (isRecord(rawGroups)) {
    for (const [name, names] of Object.entries(rawGroups)) {
      const groupName = seasonPartSchemas.groupName.safeParse(name);
      const group = seasonPartSchemas.group.safeParse(names);
      if (groupName.success && group.success) groups.push([groupName.data, group.data]);
      else allGroups = false;
    }
  }
  const rawSeries = own(value, 'series');
  return {
    ...(community.success && { community: community.data }),
    groups,
    allGroups,
    series: Array.isArray(rawSeries) ? rawSeries.map((s: unknown, si) => readSeries(s, si)) : [],
  };
}
