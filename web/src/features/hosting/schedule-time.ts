import { format } from 'date-fns';

/**
 * The console shows and takes schedule times in the host's own time zone (datetime-local inputs
 * read and write local wall-clock time), while season documents store UTC instants (hosting spec
 * §2, §4). These two functions are the only crossing between the two.
 */

/** A stored instant as a datetime-local value in the host's zone; '' for a value that is no time. */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  // Seconds are shown only when the stored time has them, so an untouched input says exactly it.
  return format(date, date.getSeconds() === 0 ? "yyyy-MM-dd'T'HH:mm" : "yyyy-MM-dd'T'HH:mm:ss");
}

/** A datetime-local value (the host's wall-clock time) as a UTC instant, '2026-12-01T18:00:00Z'. */
export function fromLocalInput(value: string): string {
  // ECMAScript reads a date-time without an offset as local time: exactly what the input means.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return date.toISOString().replace(/\.000Z$/, 'Z');
}

/** The later of two instants (ISO), for the earliest a locked game's standby or complete may take. */
export function laterOf(a: string, b: string): string {
  return Date.parse(a) >= Date.parse(b) ? a : b;
}
