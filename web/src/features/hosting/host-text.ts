import type { GameState, HostedCommunity, SeasonCounts, SeasonImportResult } from '@hunch/contract';

/** Texts of the host console: what waits, where a game stands, what an import did. */

const plural = (n: number, one: string, many = `${one}s`) =>
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

/** A value of the audit log, short: texts as they are, numbers, others as compact JSON. */
function valueText(value: unknown): string {
  if (value === undefined || value === null) return '–';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

const clip = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * What an audit entry changed, compactly: for two records, only the fields that differ
 * ('standby: 2026-12-03T18:00:00Z → 2026-12-04T18:00:00Z'); for a new or deleted record its name; otherwise
 * 'old → new'.
 */
export function auditChange(old: unknown, next: unknown): string[] {
  const isRecord = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isRecord(old) && isRecord(next)) {
    const keys = [...new Set([...Object.keys(old), ...Object.keys(next)])];
    return keys
      .filter((k) => JSON.stringify(old[k]) !== JSON.stringify(next[k]))
      .map((k) => `${k}: ${clip(valueText(old[k]), 60)} → ${clip(valueText(next[k]), 60)}`);
  }
  // Something created: its name says enough (the whole record is in the season file).
  if (old === undefined || old === null) {
    if (isRecord(next)) return typeof next.name === 'string' ? [`name: ${clip(next.name, 60)}`] : [];
    return next === undefined || next === null ? [] : [clip(valueText(next))];
  }
  if (isRecord(old) && (next === undefined || next === null))
    return typeof old.name === 'string' ? [`name: ${clip(old.name, 60)}`] : [];
  return [`${clip(valueText(old), 60)} → ${clip(valueText(next), 60)}`];
}
