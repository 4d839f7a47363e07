import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeries } from '../hosting/authoring';
import { createGame } from '../test/authoring';
import { makeCommunity, makeGame, standardQuestions } from '../test/factories';
import { startTestApp, type TestApp } from '../test/test-app';
import { dbKinds } from '../test/test-db';

/** The lines of an iCalendar text, unfolded (a long line continues on lines that start with a space). */
const icsLines = (text: string) => text.replace(/\r\n[ \t]/g, '').split('\r\n');

/** One VEVENT's properties by name (the first of each), from the lines between BEGIN and END. */
function events(text: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  let current: Record<string, string> | undefined;
  for (const line of icsLines(text)) {
    if (line === 'BEGIN:VEVENT') current = {};
    else if (line === 'END:VEVENT') {
      if (current) found.push(current);
      current = undefined;
    } else if (current) {
      const [name = '', ...rest] = line.split(':');
      const key = name.split(';')[0]!;
      current[key] ??= rest.join(':');
    }
  }
  return found;
}

/** 2026-12-01T18:00:00.000Z -> 20261201T180000Z, as iCalendar writes a UTC time. */
const icsUtc = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

const HOUR = 3_600_000;

describe.each(dbKinds)('calendar (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t?.close());

  it("answers a game's .ics: one event in UTC, named, with the game's absolute link", async () => {
    const game = await makeGame(t.ctx.db, t.clock.now);
    const res = await t.app.inject({
      url: `/api/calendar/game/${game.uuid}.ics`,
      headers: { host: 'hunch.example:8443' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="hunch-test-game.ics"');
    // The same for every caller: a cache may keep it (no no-store).
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const lines = icsLines(res.body);
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines).toContain('VERSION:2.0');
    const [event, ...more] = events(res.body);
    expect(more).toEqual([]);
    const link = `http://hunch.example:8443/play/${game.community.endpoint}/${game.seriesEndpoint}/${game.uuid}`;
    expect(event).toMatchObject({
      UID: `${game.uuid}@hunch`,
      SUMMARY: `Test Game · Club ${game.community.endpoint}`,
      // An asynchronous game's event is its submission window, in UTC (…Z).
      DTSTART: icsUtc(game.schedule.open),
      DTEND: icsUtc(game.schedule.standby),
      URL: link,
    });
    expect(event!.DESCRIPTION).toContain(link);
    expect(event!.DESCRIPTION).toContain('UTC');
    // A reminder before it opens.
    expect(lines).toContain('BEGIN:VALARM');
    expect(lines).toContain('TRIGGER:-PT10M');
  });

  it('puts a live game from its lobby to its results', async () => {
    const game = await makeGame(t.ctx.db, t.clock.now, { synchronous: true });
    const res = await t.app.inject({ url: `/api/calendar/game/${game.uuid}.ics` });
    const [event] = events(res.body);
    expect(event).toMatchObject({
      DTSTART: icsUtc(game.schedule.open),
      DTEND: icsUtc(game.schedule.complete),
    });
    expect(event!.DESCRIPTION).toContain('Live game');
  });

  it("serves a community's feed: its games still to come and those of the last two weeks", async () => {
    const community = await makeCommunity(t.ctx.db, { name: 'Feed Club' });
    const seriesId = await createSeries(t.ctx.db, {
      communityId: community.id,
      endpoint: 'weekly',
      name: 'Weekly',
    });
    const now = t.clock.now.getTime();
    const at = (hours: number) => new Date(now + hours * HOUR);
    const game = async (name: string, openH: number) =>
      createGame(t.ctx.db, seriesId, {
        name,
        schedule: { open: at(openH), standby: at(openH + 24), complete: at(openH + 25) },
        questions: standardQuestions,
      });
    const upcoming = await game('Next week', 24 * 7);
    const open = await game('This week', -2);
    const recent = await game('Last week', -24 * 7);
    await game('Long ago', -24 * 40);
    // Another community's game is not in this feed.
    await makeGame(t.ctx.db, t.clock.now);

    const res = await t.app.inject({ url: `/api/calendar/community/${community.endpoint}.ics` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const lines = icsLines(res.body);
    expect(lines).toContain('X-WR-CALNAME:Feed Club · Hunch');
    const found = events(res.body);
    expect(found.map((e) => e.UID).sort()).toEqual([upcoming, open, recent].map((u) => `${u}@hunch`).sort());
    expect(found.find((e) => e.UID === `${upcoming}@hunch`)?.SUMMARY).toBe('Next week · Feed Club');
  });

  it('answers 404 with a clear text for an unknown game or community', async () => {
    const missing = await t.app.inject({
      url: '/api/calendar/game/00000000-0000-4000-8000-000000000000.ics',
    });
    expect([missing.statusCode, missing.body]).toEqual([404, 'No such game']);
    const malformed = await t.app.inject({ url: '/api/calendar/game/not-a-game.ics' });
    expect([malformed.statusCode, malformed.body]).toEqual([404, 'No such game']);
    const community = await t.app.inject({ url: '/api/calendar/community/no-such-club.ics' });
    expect([community.statusCode, community.body]).toEqual([404, 'No such community']);
  });
});
