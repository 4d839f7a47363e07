import type { Game } from '@hunch/contract';
import { format } from 'date-fns';

/** A schedule timestamp in the viewer's own time zone (date-fns formats local time). */
export function formatWhen(iso: string, pattern = 'EEE, MMM d, h:mm a'): string | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : format(date, pattern);
}

/** A UTC time as season files and the server's sentences write it. */
const ISO_UTC = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?Z/g;

/**
 * A server sentence with its UTC times on the viewer's clock, as the console's editors show times
 * ('This game opened at 2030-01-07T17:00:00Z' → '… at Mon, Jan 7, 2030, 6:00 PM' in Berlin).
 * `keepUtc`: the UTC time follows in brackets, for a season file's problems, whose times the file
 * may write in UTC.
 */
export function withLocalTimes(text: string, { keepUtc = false } = {}): string {
  return text.replace(ISO_UTC, (iso) => {
    const local = formatWhen(iso, 'EEE, MMM d, yyyy, h:mm a');
    if (!local) return iso;
    return keepUtc ? `${local} (${iso})` : local;
  });
}

/** e.g. 'Europe/Berlin': where a host's times are entered. */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
}

/**
 * The viewer's time zone as their clock names it now, e.g. 'Central European Standard Time' (else
 * its offset, 'UTC+01:00'): shown beside a game's schedule so nobody wonders whose clock it is.
 * Read from the date's own text, not Intl: a page's first Intl call sets up ICU, tens of
 * milliseconds of a phone's first screen (decision 031).
 */
export function viewerZoneName(now = new Date()): string {
  const named = /\(([^()]+)\)\s*$/.exec(now.toString())?.[1]?.trim();
  if (named) return named;
  const offset = -now.getTimezoneOffset();
  const abs = Math.abs(offset);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `UTC${offset < 0 ? '-' : '+'}${hhmm}`;
}

/** The one schedule moment that matters for where the game stands, for cards and lists. */
export function scheduleLine(game: Game, now = Date.now()): { text: string; at: string } {
  const { open, standby, complete } = game.schedule;
  switch (game.state) {
    case 'closed':
      return { text: 'Opens', at: open };
    case 'open':
      return { text: game.synchronous ? 'Starts' : 'Closes', at: standby };
    case 'standby':
    case 'results':
      // Scoring may still run after schedule.complete; then the game has ended, results pending.
      return { text: Date.parse(complete) > now ? 'Results' : 'Ended', at: complete };
    case 'complete':
      return { text: 'Ended', at: complete };
  }
}

export interface ScheduleRow {
  key: 'open' | 'standby' | 'complete';
  label: string;
  at: string;
}

/**
 * The three schedule boundaries' names for each kind of game (spec §2 Schedule section): the game
 * page, the console's schedule fields and its problem places all say them alike.
 */
export const SCHEDULE_LABELS = {
  async: { open: 'Submissions open', standby: 'Submissions close', complete: 'Results' },
  live: { open: 'Lobby opens', standby: 'Game starts', complete: 'Game ends' },
} as const;

/** The three schedule boundaries, named for the kind of game (spec §2 Schedule section). */
export function scheduleRows(game: Game): ScheduleRow[] {
  const labels = SCHEDULE_LABELS[game.synchronous ? 'live' : 'async'];
  return (['open', 'standby', 'complete'] as const).map((key) => ({
    key,
    label: labels[key],
    at: game.schedule[key],
  }));
}
