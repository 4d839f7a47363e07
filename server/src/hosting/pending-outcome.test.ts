import type { SeasonImportResult } from '@hunch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameClock } from '../games/game-clock';
import { makeCommunity } from '../test/factories';
import { adminName, postSeason, seasonDoc, signUp } from '../test/hosting-factories';
import { startTestApp, type TestApp } from '../test/test-app';
import { dbKinds } from '../test/test-db';

const HOUR = 3_600_000;

describe.each(dbKinds)('a pending outcome (%s)', (kind) => {
  let t: TestApp;
  const name = adminName();
  beforeAll(async () => {
    t = await startTestApp(kind, { config: { adminUsers: [name] } });
  });
  afterAll(() => t.close());

  it('holds its game in results past the complete time, until the outcome is there', async () => {
    const admin = t.client();
    await signUp(admin, name);
    // week-1 ran from 3 hours ago and completed an hour ago; its third question is pending.
    const doc = seasonDoc(new Date(t.clock.now.getTime() - 24 * HOUR - 3 * HOUR));
    const res = await postSeason(admin, doc);
    expect(res.statusCode, res.body).toBe(200);
    const [past, upcoming] = res.json<SeasonImportResult>().games;
    const clock = new GameClock(t.ctx, () => undefined);
    await clock.tick();
    const state = async (uuid: string) => (await t.client().get(`/api/game/${uuid}`)).json().state;
    expect(await state(past!.uuid!)).toBe('results');
    await makeCommunity(t.ctx.db, { name: 'Aardvarks' }); // first by name, with nothing waiting
    const listed = (await admin.get('/api/host/communities')).json().communities;
    // The community with an outcome to enter comes first, its next game counting its own.
    expect(listed[0]).toMatchObject({
      endpoint: doc.community.endpoint,
      waiting: { outcomes: 1 },
      next_game: { uuid: past!.uuid, state: 'results', pending: 1 },
    });
    expect(listed.length).toBeGreaterThan(1);

    // What PUT /api/host/outcome will write (the console's part): the entered number.
    await t.ctx.db.query('UPDATE questions SET outcome = 150 WHERE game_id = $1 AND i = 2', [past!.uuid]);
    await clock.tick();
    expect(await state(past!.uuid!)).toBe('complete');
    expect(await state(upcoming!.uuid!)).toBe('closed');
    // An entered pending outcome matches the file that said pending, and the export that says 150.
    const exported = await admin.get(`/api/host/export/${doc.community.endpoint}`);
    expect(exported.body).toMatch(/outcome: 150/);
    for (const again of [doc, exported.body]) {
      expect((await postSeason(admin, again)).json().updated).toEqual({
        communities: 0,
        series: 0,
        games: 0,
        questions: 0,
      });
    }
  });
});
