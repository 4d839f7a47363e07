import { describe, expect, it } from 'vitest';
import { makeGame } from '../test/factories';
import { formatWhen, scheduleLine, scheduleRows, viewerZoneName, withLocalTimes } from './time-text';

// Built from local clock parts, so the texts are the same in every time zone the tests run in.
const local = (y: number, m: number, d: number, h: number, min = 0) =>
  new Date(y, m - 1, d, h, min).toISOString();

const schedule = {
  open: local(2030, 1, 7, 18),
  standby: local(2030, 1, 8, 9, 5),
  complete: local(2030, 1, 9, 0, 30),
};

describe('time texts', () => {
  it('writes a schedule moment in the viewer’s own time', () => {
    expect(formatWhen(schedule.open)).toBe('Mon, Jan 7, 6:00 PM');
    expect(formatWhen(schedule.standby, 'h:mm a')).toBe('9:05 AM');
    expect(formatWhen(schedule.complete, 'EEE, MMM d, yyyy · h:mm a')).toBe('Wed, Jan 9, 2030 · 12:30 AM');
  });

  it('writes nothing for a moment it cannot read', () => {
    expect(formatWhen('soon')).toBeNull();
  });

  it('names the moment that matters for where a game stands', () => {
    const at = (state: 'closed' | 'open' | 'complete', synchronous = false) =>
      scheduleLine(makeGame({ schedule, state, synchronous }));
    expect(at('closed')).toEqual({ text: 'Opens', at: schedule.open });
    expect(at('open')).toEqual({ text: 'Closes', at: schedule.standby });
    expect(at('open', true)).toEqual({ text: 'Starts', at: schedule.standby });
    expect(at('complete')).toEqual({ text: 'Ended', at: schedule.complete });
  });

  it('says results are coming until the scheduled end, and ended after it while scoring runs', () => {
    const before = Date.parse(schedule.complete) - 60_000;
    const after = Date.parse(schedule.complete) + 60_000;
    for (const state of ['standby', 'results'] as const) {
      const game = makeGame({ schedule, state });
      expect(scheduleLine(game, before)).toEqual({ text: 'Results', at: schedule.complete });
      expect(scheduleLine(game, after)).toEqual({ text: 'Ended', at: schedule.complete });
    }
  });

  it('names the three boundaries for the kind of game', () => {
    expect(scheduleRows(makeGame({ schedule })).map((r) => [r.label, r.at])).toEqual([
      ['Submissions open', schedule.open],
      ['Submissions close', schedule.standby],
      ['Results', schedule.complete],
    ]);
    expect(scheduleRows(makeGame({ schedule, synchronous: true })).map((r) => r.label)).toEqual([
      'Lobby opens',
      'Game starts',
      'Game ends',
    ]);
  });

  it('names the viewer’s time zone as the date’s own text does, else by its offset', () => {
    const named = new Date(2030, 0, 7, 18);
    const fromText = /\(([^()]+)\)$/.exec(named.toString())?.[1];
    if (fromText) expect(viewerZoneName(named)).toBe(fromText);
    const bare = (text: string, offsetMinutes: number) =>
      ({ toString: () => text, getTimezoneOffset: () => offsetMinutes }) as Date;
    expect(
      viewerZoneName(bare('Mon Jan 07 2030 18:00:00 GMT+0100 (Central European Standard Time)', -60)),
    ).toBe('Central European Standard Time');
    expect(viewerZoneName(bare('Mon Jan 07 2030 18:00:00 GMT+0530', -330))).toBe('UTC+05:30');
    expect(viewerZoneName(bare('Mon Jan 07 2030 18:00:00 GMT-0800', 480))).toBe('UTC-08:00');
    expect(viewerZoneName(bare('Mon Jan 07 2030 18:00:00 GMT+0000 ()', 0))).toBe('UTC+00:00');
  });
});

describe('withLocalTimes', () => {
  it('writes each UTC time of a sentence on the viewer’s clock, and leaves the rest', () => {
    const at = local(2030, 1, 7, 18);
    const later = local(2030, 1, 9, 0, 30).replace('.000Z', 'Z');
    expect(
      withLocalTimes(`This game opened at ${at}: standby may only move later (it is saved as ${later})`),
    ).toBe(
      'This game opened at Mon, Jan 7, 2030, 6:00 PM: standby may only move later (it is saved as Wed, Jan 9, 2030, 12:30 AM)',
    );
    expect(withLocalTimes('Name is required; 2030-01-07 is a date')).toBe(
      'Name is required; 2030-01-07 is a date',
    );
  });

  it('keeps the UTC time beside it when asked (a season file’s problems)', () => {
    const at = local(2030, 1, 7, 18).replace('.000Z', 'Z');
    expect(withLocalTimes(`This time has passed: it stays ${at}`, { keepUtc: true })).toBe(
      `This time has passed: it stays Mon, Jan 7, 2030, 6:00 PM (${at})`,
    );
  });
});
