import type { GameState, HostedCommunity, SeasonCounts, SeasonImportResult } from '@hunch/contract';
import { formatWhen } from '../../shared/time-text';
import { pathParts } from './path-text';

/** Texts of the host console: what waits, where a game stands, what an import did. */

/** A count with its noun: '1 player', '1,204 players'. */
export const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What waits for the hosts of a community ('3 outcomes to enter'), or null when nothing does. */
export function waitingText(waiting: HostedCommunity['waiting']): string | null {
  return waiting.outcomes > 0 ? `${plural(waiting.outcomes, 'outcome')} to enter` : null;
}

/** Where a game stands, for hosts: in words, never by colour alone. */
export const HOST_STATE_TEXT: Record<GameState, string> = {
  closed: 'Not open yet',
  open: 'Open',
  standby: 'In play',
  results: 'Waiting for results',
  complete: 'Complete',
};

/**
 * The one time that matters for where a game stands, for hosts: when a closed game opens, when an
 * open one closes (a live one starts), when results come, what a game in results waits for, when
 * a complete one completed. `pending` is its number of outcomes to enter.
 */
export function stateTime(
  state: GameState,
  schedule: { open: string; standby: string; complete: string },
  { pending = 0, live = false }: { pending?: number; live?: boolean } = {},
): { text: string; at: string | null } {
  switch (state) {
    case 'closed':
      return { text: live ? 'lobby opens' : 'opens', at: schedule.open };
    case 'open':
      return { text: live ? 'starts' : 'closes', at: schedule.standby };
    case 'standby':
      return { text: live ? 'ends' : 'results at', at: schedule.complete };
    // After the label 'Waiting for results': what they wait for, not the same words again.
    case 'results':
      return pending > 0
        ? { text: `· ${plural(pending, 'outcome')} to enter`, at: null }
        : { text: '· being scored', at: null };
    case 'complete':
      return { text: 'completed', at: schedule.complete };
  }
}

/** A slider's range for an outcome's hint; none while it is not a range (min at or above max). */
export function sliderRangeText({
  min,
  max,
  unit,
}: {
  min: number;
  max: number;
  unit: string;
}): string | null {
  if (![min, max].every(Number.isFinite) || min >= max) return null;
  return `On the slider: ${min} to ${max}${unit ? ` ${unit}` : ''}.`;
}

/** A game is past standby: outcomes may be entered and questions voided (hosting spec §2, §5). */
export function outcomesOpen(state: GameState): boolean {
  return state === 'standby' || state === 'results' || state === 'complete';
}

const COUNT_NAMES: [keyof SeasonCounts, string, string][] = [
  ['communities', 'community', 'communities'],
  ['series', 'series', 'series'],
  ['games', 'game', 'games'],
  ['questions', 'question', 'questions'],
];

function countsText(counts: SeasonCounts): string | null {
  const parts = COUNT_NAMES.filter(([k]) => counts[k] > 0).map(([k, one, many]) =>
    plural(counts[k], one, many),
  );
  return parts.length > 0 ? parts.join(', ') : null;
}

const NOTHING = 'Nothing to change.';

/** An import's answer in a line per kind of change: 'Created: 1 game, 5 questions'. */
export function importSummary(result: SeasonImportResult): string[] {
  const lines = (
    [
      ['Created', result.created],
      ['Updated', result.updated],
      ['Unchanged', result.unchanged],
    ] as const
  ).flatMap(([label, counts]) => {
    const text = countsText(counts);
    return text ? [`${label}: ${text}`] : [];
  });
  return lines.length > 0 ? lines : [NOTHING];
}

/** What a save (or its check) does to the document, leaving out the unchanged rest of it. */
export function saveText(result: SeasonImportResult): string {
  const zero = { communities: 0, series: 0, games: 0, questions: 0 };
  const lines = importSummary({ ...result, unchanged: zero }).filter((l) => l !== NOTHING);
  if (result.dry_run)
    return lines.length > 0
      ? `No problems found. Saving will apply: ${lines.join('; ')}.`
      : 'No problems found, and nothing to change.';
  return lines.length > 0 ? `Saved. ${lines.join('; ')}.` : 'Saved: nothing changed.';
}

/** An audit entry's action in words; an action this list does not know is spelled out. */
const ACTION_TEXT: Record<string, string> = {
  'community.created': 'Community created',
  'community.updated': 'Community updated',
  'series.created': 'Series created',
  'series.updated': 'Series updated',
  'game.created': 'Game created',
  'game.updated': 'Game updated',
  'game.deleted': 'Game deleted',
  'host.granted': 'Host added',
  'host.revoked': 'Host removed',
  'outcome.entered': 'Outcome entered',
  'outcome.corrected': 'Outcome corrected',
  'question.voided': 'Question voided',
  'question.restored': 'Question restored',
};

export function auditActionText(action: string): string {
  const known = ACTION_TEXT[action];
  if (known) return known;
  const words = action.replace(/[._]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : action;
}

/** Actions whose words say all their values would (a host added: host no → yes). */
const SAID_BY_ACTION = new Set(['host.granted', 'host.revoked', 'question.voided', 'question.restored']);

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A value of the audit log, short: times in the reader's zone, yes and no, none for nothing. */
function valueText(value: unknown): string {
  if (value === undefined || value === null) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') {
    if (value === '') return '(empty)';
    return ISO_TIME.test(value) ? (formatWhen(value, 'MMM d, yyyy, h:mm a') ?? value) : value;
  }
  if (typeof value === 'number') return value.toLocaleString('en-US');
  if (Array.isArray(value))
    return value.every((v) => typeof v === 'string') ? value.join(', ') : plural(value.length, 'item');
  return JSON.stringify(value);
}

const clip = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Each leaf that differs between two values, as [path, old, new]; lists of one length item by item. */
function differences(old: unknown, next: unknown, at: string[] = []): [string[], unknown, unknown][] {
  if (JSON.stringify(old) === JSON.stringify(next)) return [];
  if (isRecord(old) && isRecord(next)) {
    const keys = [...new Set([...Object.keys(old), ...Object.keys(next)])];
    return keys.flatMap((k) => differences(old[k], next[k], [...at, k]));
  }
  if (Array.isArray(old) && Array.isArray(next) && old.length === next.length)
    return old.flatMap((o, i) => differences(o, next[i], [...at, String(i)]));
  if (Array.isArray(old) && Array.isArray(next) && ![...old, ...next].every((v) => typeof v === 'string'))
    return [[at, plural(old.length, 'item'), plural(next.length, 'item')]];
  return [[at, old, next]];
}

/**
 * The places a refused save's draft kept over a newer save's (mergeDraft's conflicts), named as the
 * console names them from `root` (the draft: a game, a series, a community), with the other
 * save's value: 'Question 1 › Text: “Best trail?”'.
 */
export function conflictLines(
  conflicts: readonly { path: string; theirs: unknown }[],
  root: unknown,
): string[] {
  return conflicts.map(({ path, theirs }) => {
    const place = pathParts(path, root).join(' › ') || 'Everything';
    const value = clip(valueText(theirs), 60);
    const quoted = typeof theirs === 'string' && theirs !== '' && !ISO_TIME.test(theirs);
    return `${place}: ${quoted ? `“${value}”` : value}`;
  });
}

/** More lines than this say how many more there are instead. */
const CHANGES_SHOWN = 8;

/**
 * What an audit entry changed, in words: for two records, only the values that differ, named as
 * the console names them ('Standby time: Dec 3, 2026, 6:00 PM → Dec 4, 2026, 6:00 PM',
 * 'Question 2 › Text: Old → New'); for a new or deleted record its name; otherwise 'old → new'.
 */
export function auditChange(old: unknown, next: unknown, action = ''): string[] {
  if (SAID_BY_ACTION.has(action)) return [];
  // Something created or deleted: its name says enough (the whole record is in the season file).
  const gone = (v: unknown) => v === undefined || v === null;
  if (gone(old) && isRecord(next))
    return typeof next.name === 'string' ? [`Name: ${clip(next.name, 60)}`] : [];
  if (isRecord(old) && gone(next)) return typeof old.name === 'string' ? [`Name: ${clip(old.name, 60)}`] : [];
  if (gone(old) && gone(next)) return [];
  const lines = differences(old, next).map(([path, o, n]) => {
    const values = `${clip(valueText(o), 60)} → ${clip(valueText(n), 60)}`;
    return path.length > 0 ? `${pathParts(path.join('.')).join(' › ')}: ${values}` : values;
  });
  return lines.length > CHANGES_SHOWN + 1
    ? [...lines.slice(0, CHANGES_SHOWN), `and ${lines.length - CHANGES_SHOWN} more changes`]
    : lines;
}
