import {
  noTimeToEnter,
  type SeasonCommunity,
  type SeasonCounts,
  type SeasonParts,
  type SeasonProblem,
  type SeriesParts,
  sameStandby,
} from '@hunch/contract';
import { liveEndsAt } from '@hunch/rules';
import type { ExistingGame, StoredGame } from './game-store';
import { compareQuestion, gameSettings, type ImageName, isoTime, storedGame } from './season-convert';
import type { CommunityState, ExistingCommunity, ExistingSeries } from './season-queries';

export type Action = 'create' | 'update' | 'unchanged';

export interface CommunityFields {
  endpoint: string;
  name: string;
  description: string;
  image: string;
  listed: boolean;
  categories: string[];
}

export interface GamePlan {
  path: string;
  action: Action;
  next: StoredGame;
  old?: ExistingGame;
  /** The questions differ: stored ones are replaced (only ever before the game opens). */
  replaceQuestions: boolean;
  questions: { created: number; updated: number; unchanged: number };
}

export interface SeriesPlan {
  endpoint: string;
  action: Action;
  next: { endpoint: string; name: string; description: string; image: string };
  old?: ExistingSeries;
  games: GamePlan[];
}

export interface SeasonPlan {
  community: { action: Action; next: CommunityFields; old?: ExistingCommunity };
  /** Categories to create, with their group. */
  newCategories: { name: string; group: string }[];
  series: SeriesPlan[];
}

/** What the plan needs from the database besides the community itself. */
export interface PlanLookups {
  /** name -> group of the categories the file names that exist. */
  categories: Map<string, string | null>;
  /** The subcommunity endpoints the file names that exist. */
  communities: Set<string>;
}

const DEFAULT_IMAGE = '_.jpg';
const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/**
 * Compares a season with what is stored and decides, for each community, series, game and
 * question, whether to create, update or leave it; every rule that needs the database is checked
 * here, and each problem is reported at its path. A document that does not parse whole is checked
 * on its parts that do; the plan is then of no use (nothing is written), and there is none without
 * a community.
 */
export function planSeason(
  parts: SeasonParts,
  image: ImageName,
  state: CommunityState | undefined,
  lookups: PlanLookups,
  now: Date,
): { plan?: SeasonPlan; problems: SeasonProblem[] } {
  const problems: SeasonProblem[] = [];
  const at = (path: (string | number)[], message: string) => problems.push({ path: path.join('.'), message });

  const groups = new Map<string, string>();
  for (const [group, names] of parts.groups) {
    for (const [i, name] of names.entries()) {
      // A category in two groups is the document's problem, reported where it is named again.
      if (groups.has(name)) continue;
      groups.set(name, group);
      const existing = lookups.categories.get(name);
      if (existing !== undefined && existing !== group)
        at(
          ['category_groups', group, i],
          `Category ${name} exists already, in ${existing === null ? 'the unnamed group' : `group ${existing}`}`,
        );
    }
  }
  const c = parts.community;
  const categories = c?.categories ?? [];
  const newCategories: SeasonPlan['newCategories'] = [];
  for (const [i, name] of categories.entries()) {
    // A category listed twice is the document's problem: it is looked up where first named.
    if (lookups.categories.has(name) || categories.indexOf(name) !== i) continue;
    const group = groups.get(name);
    if (group !== undefined) newCategories.push({ name, group });
    // Unless every group parses, the category may be in one that does not.
    else if (parts.allGroups)
      // Read in the console's settings too, which pick from the categories there are.
      at(
        ['community', 'categories', i],
        `No category ${name} exists: choose one that does, or add it to a group under category_groups in a season file`,
      );
  }

  const series: SeriesPlan[] = [];
  const seriesSeen = new Set<string>();
  for (const s of parts.series) {
    // A series named twice is the document's problem: only the first is compared with the stored.
    const endpoint = s.fields?.endpoint;
    const first = endpoint !== undefined && !seriesSeen.has(endpoint);
    if (endpoint !== undefined) seriesSeen.add(endpoint);
    const oldSeries = first ? state?.series.find((x) => x.endpoint === endpoint) : undefined;
    const games = planGames(s, oldSeries, state, image, lookups, now, at);
    if (!s.fields) continue;
    const nextSeries = {
      endpoint: s.fields.endpoint,
      name: s.fields.name,
      description: s.fields.description ?? oldSeries?.description ?? '',
      image: settingsImage(image('games', s.fields.image ?? undefined), s.fields.image, oldSeries?.image),
    };
    const seriesChanged =
      oldSeries &&
      (oldSeries.name !== nextSeries.name ||
        oldSeries.description !== nextSeries.description ||
        oldSeries.image !== nextSeries.image);
    series.push({
      endpoint: nextSeries.endpoint,
      action: !oldSeries ? 'create' : seriesChanged ? 'update' : 'unchanged',
      next: nextSeries,
      old: oldSeries,
      games,
    });
  }
  const community = c && communityPlan(c, image, state?.community);
  return { ...(community && { plan: { community, newCategories, series } }), problems };
}

/** A community's or a series' picture: the file's, the default for null, else the stored one. */
function settingsImage(
  named: string | null,
  ref: string | null | undefined,
  stored: string | undefined,
): string {
  if (ref === null) return DEFAULT_IMAGE;
  return named ?? stored ?? DEFAULT_IMAGE;
}

function communityPlan(
  c: SeasonCommunity,
  image: ImageName,
  old: ExistingCommunity | undefined,
): SeasonPlan['community'] {
  // What the file leaves out keeps what is stored (a new community: the defaults).
  const next: CommunityFields = {
    endpoint: c.endpoint,
    name: c.name,
    description: c.description ?? old?.description ?? '',
    image: settingsImage(image('communities', c.image ?? undefined), c.image, old?.image),
    listed: c.listed ?? old?.listed ?? true,
    categories: c.categories ?? old?.categories.map((x) => x.name) ?? [],
  };
  const changed =
    old &&
    (old.name !== next.name ||
      old.description !== next.description ||
      old.image !== next.image ||
      old.listed !== next.listed ||
      !sameSet(
        old.categories.map((x) => x.name),
        next.categories,
      ));
  return { action: !old ? 'create' : changed ? 'update' : 'unchanged', next, old };
}

/** The games of a series that parse, each against its stored game when the series has one. */
function planGames(
  s: SeriesParts,
  oldSeries: ExistingSeries | undefined,
  state: CommunityState | undefined,
  image: ImageName,
  lookups: PlanLookups,
  now: Date,
  at: (path: (string | number)[], message: string) => void,
): GamePlan[] {
  const storedGames = oldSeries ? (state?.games ?? []).filter((g) => g.seriesId === oldSeries.id) : [];
  // Games the file leaves out stay as they are; their start times stay taken. Which those are is
  // unknown while a game's key cannot be read.
  const keysInFile = new Set(s.keys);
  const keptStandby = new Map(
    s.keys ? storedGames.filter((g) => !keysInFile.has(g.key)).map((g) => [g.standby.getTime(), g.key]) : [],
  );
  const keysSeen = new Set<string>();
  return s.games.map(({ index: gi, game: g }) => {
    const path = ['series', s.index, 'games', gi];
    const nextGame = storedGame(g, image);
    // Each unknown endpoint once: a repeat is reported by the document's checks.
    for (const [ti, team] of g.subcommunities.entries()) {
      if (!lookups.communities.has(team) && g.subcommunities.indexOf(team) === ti)
        at([...path, 'subcommunities', ti], `No community has the endpoint ${team}`);
    }
    if (nextGame.synchronous) {
      const endsAt = liveEndsAt({
        startAt: nextGame.standby.getTime(),
        secs: nextGame.questions.map((q) => q.secs_to_answer),
      });
      if (nextGame.complete.getTime() < endsAt)
        at(
          [...path, 'schedule', 'complete'],
          `A live game must complete after its questions end: ${isoTime(new Date(endsAt))} or later`,
        );
    }
    const clash = keptStandby.get(nextGame.standby.getTime());
    if (clash !== undefined) at([...path, 'schedule', 'standby'], sameStandby(clash));
    // A key used twice is the document's problem: only its first game is compared with the stored.
    const stored = keysSeen.has(g.key) ? undefined : storedGames.find((x) => x.key === g.key);
    keysSeen.add(g.key);
    // A void is a host's call once answers have closed (hosting spec §5): a file carries one over.
    // An opened game's new void is reported as a change its console makes (checkOpenedGame).
    const opened = stored !== undefined && stored.open.getTime() <= now.getTime();
    if (nextGame.standby.getTime() > now.getTime() && !opened)
      for (const [qi, q] of nextGame.questions.entries())
        if (q.voided)
          at(
            [...path, 'questions', qi, 'voided'],
            `A question is voided once answers have closed, at ${isoTime(nextGame.standby)}`,
          );
    return planGame(path, nextGame, stored, now, at);
  });
}

function planGame(
  path: (string | number)[],
  filed: StoredGame,
  old: ExistingGame | undefined,
  now: Date,
  at: (path: (string | number)[], message: string) => void,
): GamePlan {
  // A live game's results come as its live part ends: its stored complete time was brought forward
  // to that (live-conductor.ts). The host's file still says the time they set, later: the same file
  // imported again changes nothing, so that time is read as the stored one.
  const next =
    old?.synchronous && filed.synchronous && old.complete <= now && filed.complete >= old.complete
      ? { ...filed, complete: old.complete }
      : filed;
  if (next.standby.getTime() === next.open.getTime() && (!old || now.getTime() < old.open.getTime()))
    at([...path, 'schedule', 'standby'], noTimeToEnter(next.synchronous));
  if (!old) {
    const created = next.questions.length;
    return {
      path: path.join('.'),
      action: 'create',
      next,
      replaceQuestions: true,
      questions: { created, updated: 0, unchanged: 0 },
    };
  }
  const verdicts = next.questions.map((q, i) => compareQuestion(q, old.questions[i]));
  const questionsChanged =
    verdicts.some((v) => v !== 'same') || next.questions.length !== old.questions.length;
  const questions = {
    created: verdicts.filter((v) => v === 'new').length,
    updated: verdicts.filter((v) => v === 'changed' || v === 'outcome' || v === 'void').length,
    unchanged: verdicts.filter((v) => v === 'same').length,
  };
  const settingsChanged = gameSettings(next) !== gameSettings(old);
  if (now.getTime() >= old.open.getTime())
    checkOpenedGame(path, next, old, verdicts, questionsChanged, now, at);
  return {
    path: path.join('.'),
    action: questionsChanged || settingsChanged ? 'update' : 'unchanged',
    next,
    old,
    replaceQuestions: questionsChanged,
    questions,
  };
}

/**
 * Once a game has opened, answers refer to its questions and choices: they are locked, and so is
 * what players chose by (subcommunities) and how they are scored (speed bonus, live or not). Its
 * standby and complete may still move later while they are ahead.
 */
function checkOpenedGame(
  path: (string | number)[],
  next: StoredGame,
  old: ExistingGame,
  verdicts: ReturnType<typeof compareQuestion>[],
  questionsChanged: boolean,
  now: Date,
  at: (path: (string | number)[], message: string) => void,
) {
  const opened = `This game opened at ${isoTime(old.open)}`;
  if (questionsChanged) {
    const onlyOutcomes =
      next.questions.length === old.questions.length &&
      verdicts.every((v) => v === 'same' || v === 'outcome' || v === 'void');
    if (onlyOutcomes) {
      for (const [i, v] of verdicts.entries()) {
        if (v === 'outcome')
          at(
            [...path, 'questions', i, 'outcome'],
            `${opened}: enter or correct its outcome in the console (PUT /api/host/outcome), which re-scores it`,
          );
        else if (v === 'void')
          at(
            [...path, 'questions', i, 'voided'],
            `${opened}: void or restore its questions in the console (PUT /api/host/outcome), which re-scores it`,
          );
      }
    } else {
      at(path, `${opened}: its questions and choices can no longer change (answers refer to them)`);
    }
  }
  const schedule = [...path, 'schedule'];
  if (next.open.getTime() !== old.open.getTime())
    at([...schedule, 'open'], `${opened}: its open time stays ${isoTime(old.open)}`);
  for (const field of ['standby', 'complete'] as const) {
    const was = old[field].getTime();
    const will = next[field].getTime();
    if (will === was) continue;
    if (was <= now.getTime() || (field === 'complete' && old.scored))
      // The problem's place names the field (a file's key, or the console's label for it).
      at([...schedule, field], `This time has passed: it stays ${isoTime(old[field])}`);
    else if (will < was)
      at(
        [...schedule, field],
        `${opened}: this time may only move later (it is saved as ${isoTime(old[field])})`,
      );
  }
  if (next.synchronous !== old.synchronous)
    at([...path, 'synchronous'], `${opened}: live or not can no longer change`);
  if (next.speed_bonus !== old.speed_bonus)
    at([...path, 'speed_bonus'], `${opened}: the speed bonus can no longer change`);
  if (next.subcommunities.join('\n') !== old.subcommunities.join('\n'))
    at([...path, 'subcommunities'], `${opened}: its subcommunities can no longer change (players chose one)`);
}

/** Totals of a plan, as the import answers them. */
export function planCounts(plan: SeasonPlan): Record<'created' | 'updated' | 'unchanged', SeasonCounts> {
  const zero = (): SeasonCounts => ({ communities: 0, series: 0, games: 0, questions: 0 });
  const counts = { created: zero(), updated: zero(), unchanged: zero() };
  const bucket = (a: Action) =>
    a === 'create' ? counts.created : a === 'update' ? counts.updated : counts.unchanged;
  bucket(plan.community.action).communities++;
  for (const s of plan.series) {
    bucket(s.action).series++;
    for (const g of s.games) {
      bucket(g.action).games++;
      counts.created.questions += g.questions.created;
      counts.updated.questions += g.questions.updated;
      counts.unchanged.questions += g.questions.unchanged;
    }
  }
  return counts;
}
