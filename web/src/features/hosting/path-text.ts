import { SCHEDULE_LABELS } from '../../shared/time-text';

/**
 * A document path (`series.0.games.0.questions.1.slider.max`, 0-based as the import answers it)
 * in a host's words, numbered from 1 as the editor numbers questions:
 * 'Series 1 (Weekly Picks) › Game 1 (week-1) › Question 2 › Slider max'. The raw path still
 * identifies the place in a season file, so screens show it beside this text.
 */

/** Lists whose items the editor numbers: the word for one item. */
const ITEM_OF: Record<string, string> = {
  series: 'Series',
  games: 'Game',
  questions: 'Question',
  choices: 'Choice',
  categories: 'Category',
  subcommunities: 'Subcommunity',
};

/** A field's name as the console labels it (the rest are spelled out from the key). */
const FIELD_TEXT: Record<string, string> = {
  category_groups: 'Category groups',
  listed: 'Listed in search',
  synchronous: 'Live game',
  speed_bonus: 'Speed bonus',
  linked_vote: 'Linked vote',
  secs_to_answer: 'Seconds to answer',
  text: 'Text',
  uuid: 'Uuid',
};

/** Two keys the console shows as one name ('Slider max', not 'Slider › Max'). */
const PAIR_TEXT: Record<string, string> = {
  'slider.min': 'Slider min',
  'slider.max': 'Slider max',
  'slider.step': 'Slider step',
  'slider.unit': 'Slider unit',
  'schedule.open': 'Opening time',
  'schedule.standby': 'Standby time',
  'schedule.complete': 'Complete time',
};

/**
 * A game's schedule field as the console's schedule fields name it for that kind of game
 * ('Submissions close', 'Game starts'), when the document says which kind it is.
 */
function scheduleText(key: string, next: string, game: unknown): string | undefined {
  if (key !== 'schedule' || !isRecord(game) || typeof game.synchronous !== 'boolean') return undefined;
  const labels: Record<string, string> = SCHEDULE_LABELS[game.synchronous ? 'live' : 'async'];
  return labels[next];
}

const isIndex = (s: string | undefined): s is string => s !== undefined && /^\d+$/.test(s);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** 'speed_bonus' -> 'Speed bonus'. */
function spelled(key: string): string {
  const words = key.replace(/_/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : key;
}

function fieldText(key: string): string {
  return FIELD_TEXT[key] ?? spelled(key);
}

/** What names an item of the document besides its number: a series' name, a game's key. */
function nameOf(list: string, item: unknown): string | undefined {
  if (!isRecord(item)) return undefined;
  const name = list === 'series' ? (item.name ?? item.endpoint) : list === 'games' ? item.key : undefined;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
}

const clip = (text: string, max = 40) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The path's parts in words. `doc`, when given, is the document the path points into (or the
 * record a relative path starts at): series and games are then named as well as numbered.
 */
export function pathParts(path: string, doc?: unknown): string[] {
  const segments = path === '' ? [] : path.split('.');
  const parts: string[] = [];
  let node: unknown = doc;
  const down = (key: string) => {
    node = isRecord(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  };
  for (let k = 0; k < segments.length; k++) {
    const key = segments[k]!;
    const next = segments[k + 1];
    const item = ITEM_OF[key];
    if (item && isIndex(next)) {
      down(key);
      down(next);
      const name = nameOf(key, node);
      parts.push(`${item} ${Number(next) + 1}${name ? ` (${clip(name)})` : ''}`);
      k++;
      continue;
    }
    const pair =
      next !== undefined ? (scheduleText(key, next, node) ?? PAIR_TEXT[`${key}.${next}`]) : undefined;
    if (pair) {
      down(key);
      down(next!);
      parts.push(pair);
      k++;
      continue;
    }
    down(key);
    parts.push(isIndex(key) ? `Item ${Number(key) + 1}` : fieldText(key));
  }
  return parts;
}

/** The whole place in words, 'Series 1 › Game 1 › Question 2 › Slider max'; '' is the file. */
export function pathText(path: string, doc?: unknown): string {
  const parts = pathParts(path, doc);
  return parts.length > 0 ? parts.join(' › ') : 'The whole file';
}

/**
 * Where in the file, after the words: the path as written (none for the whole file, which the
 * words already name) and the line and column when the problem has them.
 */
export function filePlace(
  problem: { path: string; line?: number; column?: number },
  lines: boolean,
): { path: string | null; line: string | null } {
  const column = problem.column !== undefined ? `, column ${problem.column}` : '';
  return {
    path: problem.path || null,
    line: lines && problem.line !== undefined ? `line ${problem.line}${column}` : null,
  };
}
