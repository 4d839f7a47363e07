import type { SeasonImportResult, SeasonInput } from '@hunch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngBytes } from '../test/factories';
import {
  adminName,
  holdImportLock,
  postSeason,
  seasonDoc,
  signUp,
  stillPendingAfter,
  uploadHostImage,
} from '../test/hosting-factories';
import { multipart, startTestApp, type TestApp, type TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The console's calls (issue 25): a community's games, deleting a game that has not opened, and
 * image uploads a season document then names. Community A is hosted by `host`; B by nobody.
 */
describe.each(dbKinds)('host console calls (%s)', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let host: TestClient;
  let player: TestClient;
  const name = adminName();
  const start = Date.now();
  // week-1 opened an hour ago; week-2 opens in 23 hours.
  const a = seasonDoc(new Date(start - DAY - HOUR));
  const b = seasonDoc(new Date(start - DAY - HOUR));
  const games = new Map<string, string>();
  const uuid = (doc: SeasonInput, key: string) => games.get(`${doc.community.endpoint}/${key}`)!;

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { adminUsers: [name] } });
    t.clock.now = new Date(start);
    admin = t.client();
    await signUp(admin, name);
    for (const doc of [a, b]) {
      const res = await postSeason(admin, doc);
      expect(res.statusCode, res.body).toBe(200);
      for (const g of res.json<SeasonImportResult>().games)
        games.set(`${doc.community.endpoint}/${g.key}`, g.uuid!);
    }
    host = t.client();
    const hostName = await signUp(host);
    expect((await admin.put(`/api/host/hosts/${a.community.endpoint}/${hostName}`)).statusCode).toBe(200);
    player = t.client();
    await signUp(player);
  });
  afterAll(() => t.close());

  it('lets only hosts of the community and admins list its games or delete one', async () => {
    const visitor = t.client();
    const calls = (doc: SeasonInput) =>
      [
        (c: TestClient) => c.get(`/api/host/games/${doc.community.endpoint}`),
        (c: TestClient) => c.delete(`/api/host/game/${uuid(doc, 'week-2')}`),
        (c: TestClient) => uploadHostImage(c, 'games', Buffer.from('x')),
      ] as const;
    for (const call of calls(a)) expect((await call(visitor)).statusCode).toBe(401);
    for (const call of calls(a)) expect((await call(player)).statusCode).toBe(403);
    const [list, remove] = calls(b);
    for (const call of [list, remove]) {
      const res = await call(host);
      expect([res.statusCode, res.body]).toEqual([403, 'You do not host this community']);
    }
    // Refused before anything was done: B's game is still there.
    expect((await t.client().get(`/api/game/${uuid(b, 'week-2')}`)).statusCode).toBe(200);
    expect((await list(admin)).statusCode).toBe(200);
    expect((await admin.get('/api/host/games/no-such-club')).statusCode).toBe(404);
    expect((await host.get('/api/host/games/no-such-club')).statusCode).toBe(403);
  });

  it('lists every game with its identity, state, lock and questions', async () => {
    const res = await host.get(`/api/host/games/${a.community.endpoint}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.community).toBe(a.community.endpoint);
    expect(
      body.games.map((g: { key: string; state: string; locked: boolean }) => [g.key, g.state, g.locked]),
    ).toEqual([
      ['week-1', 'open', true],
      ['week-2', 'closed', false],
    ]);
    const [first] = body.games;
    expect(first).toMatchObject({
      series: 'weekly-picks',
      uuid: uuid(a, 'week-1'),
      name: 'Game week-1',
      participants: 0,
      schedule: { open: new Date(start - HOUR).toISOString() },
    });
    expect(first.questions).toEqual([
      { i: 0, kind: 'vote', text: 'Best trail?', outcome: null, slider: null, voided: false },
      { i: 1, kind: 'guess', text: 'Which trail did most pick?', outcome: null, slider: null, voided: false },
      {
        i: 2,
        kind: 'predict',
        text: 'Finishers on Saturday?',
        outcome: 'pending',
        slider: { min: 0, max: 300, step: 1, unit: 'runners' },
        voided: false,
      },
      {
        i: 3,
        kind: 'predict',
        text: 'Minutes for the fastest 5k?',
        outcome: 'crowd',
        slider: { min: 14, max: 30, step: 0.5, unit: 'min' },
        voided: false,
      },
      {
        i: 4,
        kind: 'predict',
        text: 'Degrees at the start?',
        outcome: 12,
        slider: { min: -10, max: 40, step: 1, unit: '°C' },
        voided: false,
      },
    ]);
  });

  it("records a community's new settings beside its old ones, field for field", async () => {
    const doc = seasonDoc(new Date(start - DAY - HOUR));
    expect((await postSeason(admin, doc)).statusCode).toBe(200);
    const edited = { ...doc, community: { ...doc.community, description: 'Edited in the console' } };
    expect((await postSeason(admin, edited)).statusCode).toBe(200);
    const entries = (await admin.get(`/api/host/audit/${doc.community.endpoint}`)).json().entries;
    const updated = entries.find((e: { action: string }) => e.action === 'community.updated');
    expect(updated.new.description).toBe('Edited in the console');
    expect(updated.old.description).toBe(doc.community.description);
    // No stored id beside the document's fields (the log showed 'Id: 13 → none').
    expect(Object.keys(updated.old).sort()).toEqual(Object.keys(updated.new).sort());
  });

  it('deletes a game before it opens, with an audit entry, and refuses one that has opened', async () => {
    const before = uuid(a, 'week-2');
    const res = await host.delete(`/api/host/game/${before}`);
    expect([res.statusCode, res.json()]).toEqual([200, { deleted: before }]);
    expect((await t.client().get(`/api/game/${before}`)).statusCode).toBe(404);
    const listed = (await host.get(`/api/host/games/${a.community.endpoint}`)).json();
    expect(listed.games.map((g: { key: string }) => g.key)).toEqual(['week-1']);
    const { count } = (
      await t.ctx.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM questions WHERE game_id = $1',
        [before],
      )
    ).rows[0]!;
    expect(count).toBe(0);

    const audit = (await host.get(`/api/host/audit/${a.community.endpoint}`)).json().entries[0];
    expect(audit).toMatchObject({ action: 'game.deleted', target: 'weekly-picks/week-2', new: null });
    expect(audit.old).toMatchObject({ uuid: before, key: 'week-2', name: 'Game week-2' });
    expect(audit.old.questions).toHaveLength(5);
    expect(audit.old.questions[2]).toMatchObject({ kind: 'predict', outcome: 'pending' });

    const opened = await host.delete(`/api/host/game/${uuid(a, 'week-1')}`);
    expect(opened.statusCode).toBe(409);
    expect(opened.body).toMatch(/^This game opened at .+: it can no longer be deleted/);
    expect((await t.client().get(`/api/game/${uuid(a, 'week-1')}`)).statusCode).toBe(200);
    expect((await host.delete(`/api/host/game/${before}`)).statusCode).toBe(404);
    expect((await admin.delete('/api/host/game/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await admin.delete('/api/host/game/not-a-uuid')).statusCode).toBe(404);

    // An admin may delete in any community; importing the file again brings the game back anew.
    expect((await admin.delete(`/api/host/game/${uuid(b, 'week-2')}`)).statusCode).toBe(200);
    const again = await postSeason(host, a);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().created.games).toBe(1);
    const back = again.json().games.find((g: { key: string }) => g.key === 'week-2');
    expect(back.uuid).not.toBe(before);
  });

  it('deletes a game only once an import of its community in flight has committed', async () => {
    const doc = seasonDoc(new Date(t.clock.now.getTime() + 10 * DAY));
    const res = await postSeason(admin, doc);
    const game = res.json<SeasonImportResult>().games[0]!.uuid!;
    const importing = await holdImportLock(t.ctx.db, doc.community.endpoint);
    const deleting = admin.delete(`/api/host/game/${game}`);
    expect(await stillPendingAfter(deleting, 300)).toBe(true);
    await importing.release();
    expect((await deleting).statusCode).toBe(200);
  });

  it('takes a PNG, re-encodes it, and names it so that a season document can use it', async () => {
    const png = await pngBytes(96, 64);
    const res = await uploadHostImage(host, 'communities', png);
    expect(res.statusCode, res.body).toBe(201);
    const { name: image } = res.json();
    expect(image).toMatch(/^s-[0-9a-f]{32}\.jpg$/);
    const served = await t.client().get(`/assets/communities/${image}`);
    expect([served.statusCode, served.headers['content-type']]).toEqual([200, 'image/jpeg']);
    expect(served.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // The same picture again is the same file.
    expect((await uploadHostImage(admin, 'communities', png)).json().name).toBe(image);

    const withImage = { ...a, community: { ...a.community, image } };
    const imported = await postSeason(host, withImage);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().updated.communities).toBe(1);
    expect((await host.get(`/api/host/export/${a.community.endpoint}`)).body).toContain(`image: ${image}`);

    // Uploaded as a game's picture, it is not a community's.
    const asGame = (await uploadHostImage(host, 'games', await pngBytes(90, 60))).json().name;
    const wrongKind = await postSeason(host, { ...a, community: { ...a.community, image: asGame } });
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json().errors[0]).toMatchObject({ path: 'community.image' });
  });

  it('refuses what is not a JPEG or PNG picture, and a form without the image', async () => {
    const text = await uploadHostImage(
      host,
      'games',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    );
    expect([text.statusCode, text.body]).toEqual([400, 'The image must be a JPEG or PNG picture']);
    const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
    expect((await uploadHostImage(host, 'games', gif)).statusCode).toBe(400);
    expect((await uploadHostImage(host, 'games', await pngBytes(), 'picture')).statusCode).toBe(400);
    const none = await host.request('POST', '/api/host/image?kind=games', {
      multipart: multipart({ a: 'b' }),
    });
    expect([none.statusCode, none.body]).toEqual([
      400,
      'Send the image as a multipart form field named image',
    ]);
    const kind = await uploadHostImage(host, 'users', await pngBytes());
    expect([kind.statusCode, kind.body]).toEqual([400, 'kind is communities, games or questions']);
  });
});
