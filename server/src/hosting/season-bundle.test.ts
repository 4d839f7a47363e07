import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { SeasonImportResult, SeasonProblem } from '@hunch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { jpegBytes, pngBytes } from '../test/factories';
import {
  contentCounts,
  postBundle,
  postSeason,
  seasonDoc,
  startAdminApp,
  zipOf,
} from '../test/hosting-factories';
import type { TestApp, TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';
import { BUNDLE_LIMITS, readBundle } from './season-bundle';
import { SeasonRefusal } from './season-refusal';

const DAY = 86_400_000;
// biome-ignore lint/suspicious/noExplicitAny: the tests edit documents freely.
type Loose = any;

/** A season naming pictures of the bundle: the community's, a game's and a choice's. */
function illustrated(from: Date): Loose {
  const doc: Loose = seasonDoc(from);
  doc.community.image = 'images/runners.png';
  doc.series[0].games[0].image = './images/week.jpg';
  doc.series[0].games[0].questions[0].choices[2] = { text: 'Park', image: 'images/park.jpg' };
  doc.series[0].games[0].questions[1].choices[2] = { text: 'Park', image: 'images/park.jpg' };
  return doc;
}

/** Rewrites an entry's declared inflated size (local header and central directory): a liar. */
function understate(zip: Buffer, size: number): Buffer {
  const out = Buffer.from(zip);
  for (let i = 0; i < out.length - 4; i++) {
    const sig = out.readUInt32LE(i);
    if (sig === 0x04034b50) out.writeUInt32LE(size, i + 22);
    if (sig === 0x02014b50) out.writeUInt32LE(size, i + 24);
  }
  return out;
}

describe('reading a bundle', () => {
  const refusal = async (bytes: Buffer, limits = BUNDLE_LIMITS) => {
    const err = await readBundle(bytes, limits).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SeasonRefusal);
    return (err as SeasonRefusal).problems[0]!.message;
  };
  const status = async (bytes: Buffer, limits = BUNDLE_LIMITS) =>
    ((await readBundle(bytes, limits).catch((e: unknown) => e)) as { statusCode?: number }).statusCode;

  it('finds the season file at the top or in the one folder, and its files beside it', async () => {
    const top = await readBundle(await zipOf({ 'season.json': '{}', 'images/a.png': 'x', '.DS_Store': 'x' }));
    expect([top.season.format, [...top.files.keys()]]).toEqual(['json', ['images/a.png']]);
    const nested = await readBundle(await zipOf({ 'club/season.yml': 'x: 1', 'club/images/a.png': 'x' }));
    expect([nested.season.name, [...nested.files.keys()]]).toEqual(['club/season.yml', ['images/a.png']]);
    expect(await refusal(await zipOf({ 'images/a.png': 'x' }))).toMatch(/no season.yaml or season.json/);
    expect(await refusal(await zipOf({ 'a/season.yaml': 'x', 'b/season.yaml': 'y' }))).toMatch(/several/);
  });

  it('refuses too many files, before reading any', async () => {
    const files = Object.fromEntries(
      Array.from({ length: BUNDLE_LIMITS.maxEntries + 1 }, (_, i) => [`f${i}.txt`, 'x']),
    );
    expect(await refusal(await zipOf({ 'season.yaml': 'x: 1', ...files }))).toMatch(
      /holds 202 files; 200 at most/,
    );
  });

  it('answers 413 for a file, or files together, too large once inflated', async () => {
    const big = randomBytes(BUNDLE_LIMITS.maxEntryBytes + 1);
    expect(await status(await zipOf({ 'season.yaml': 'x: 1', 'big.png': big }, { compress: false }))).toBe(
      413,
    );
    const small = { ...BUNDLE_LIMITS, maxTotalBytes: 10_000 };
    const parts = { 'season.yaml': 'x: 1', 'a.png': randomBytes(6_000), 'b.png': randomBytes(6_000) };
    expect(await status(await zipOf(parts), small)).toBe(413);
    expect(await status(Buffer.alloc(BUNDLE_LIMITS.maxBytes + 1))).toBe(413);
  });

  it('refuses a zip bomb by its compression ratio, before inflating it', async () => {
    const bomb = await zipOf({ 'season.yaml': 'x: 1', 'bomb.png': Buffer.alloc(4 * 1024 * 1024) });
    expect(bomb.length).toBeLessThan(20_000);
    expect(await refusal(bomb)).toMatch(/bomb.png is compressed suspiciously well/);
  });

  it('refuses an entry that holds more than it declares, and bytes that are no zip', async () => {
    const liar = understate(await zipOf({ 'season.yaml': 'x'.repeat(50_000) }), 1_000);
    expect(await refusal(liar)).toMatch(/could not be read/);
    expect(await refusal(Buffer.from('PK\u0003\u0004 and then nothing a zip has'))).toMatch(
      /could not be read/,
    );
  });
});

describe.each(dbKinds)('importing a .zip bundle (%s)', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    ({ t, admin } = await startAdminApp(kind));
  });
  afterAll(() => t.close());

  const future = () => new Date(t.clock.now.getTime() + 10 * DAY);
  const images = async () => ({
    'images/runners.png': await pngBytes(800, 600),
    'images/week.jpg': await jpegBytes(),
    'images/park.jpg': await jpegBytes(48, 48),
  });

  it('stores the pictures re-encoded, named by their content, and imports the same bundle unchanged', async () => {
    const doc = illustrated(future());
    const zip = await zipOf({ 'season.yaml': stringify(doc), ...(await images()) });
    const res = await postBundle(admin, zip);
    expect(res.statusCode, res.body).toBe(200);
    const uuid = res.json<SeasonImportResult>().games[0]!.uuid!;
    const community = (await t.client().get(`/api/community/${doc.community.endpoint}`)).json();
    expect(community.image).toMatch(/^s-[0-9a-f]{32}\.jpg$/);
    expect(existsSync(path.join(t.ctx.uploadsDir, 'communities', community.image))).toBe(true);
    const game = (await t.client().get(`/api/game/${uuid}`)).json();
    const picture = await t.app.inject({ url: `/assets/games/${game.image}` });
    expect([picture.statusCode, picture.headers['content-type']]).toEqual([200, 'image/jpeg']);

    const again = await postBundle(admin, zip);
    expect(again.json()).toMatchObject({ updated: { communities: 0, games: 0, questions: 0 } });
    // The export names the stored pictures, and imports without the bundle.
    const exported = await admin.get(`/api/host/export/${doc.community.endpoint}`);
    expect(exported.body).toContain(community.image);
    const back = await admin.request('POST', '/api/host/import', {
      multipart: { body: Buffer.from(exported.body), contentType: 'application/yaml' },
    });
    expect(back.json()).toMatchObject({ updated: { communities: 0, series: 0, games: 0, questions: 0 } });
  });

  it("keeps a community's picture when a file leaves it out; image: null puts back the default", async () => {
    const doc = illustrated(future());
    expect(
      (await postBundle(admin, await zipOf({ 'season.yaml': stringify(doc), ...(await images()) })))
        .statusCode,
    ).toBe(200);
    const imageOf = async () =>
      (await t.client().get(`/api/community/${doc.community.endpoint}`)).json().image;
    const stored = await imageOf();
    expect(stored).toMatch(/^s-[0-9a-f]{32}\.jpg$/);
    // Only to add a series: the community named by its endpoint and name, nothing else.
    const partial = {
      community: { endpoint: doc.community.endpoint, name: doc.community.name },
      series: [{ endpoint: 'extra', name: 'Extra', games: [] }],
    };
    const added = await postSeason(admin, partial);
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ created: { series: 1 }, updated: { communities: 0 } });
    expect(await imageOf()).toBe(stored);
    const cleared = await postSeason(admin, { ...partial, community: { ...partial.community, image: null } });
    expect(cleared.json()).toMatchObject({ updated: { communities: 1 } });
    expect(await imageOf()).toBe('_.jpg');
  });

  it('refuses a picture that is missing or is no picture, at the path that names it, and writes nothing', async () => {
    const before = await contentCounts(t.ctx.db);
    const doc = illustrated(future());
    const zip = await zipOf({
      'season.json': JSON.stringify(doc),
      'images/runners.png': Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      'images/park.jpg': await jpegBytes(),
    });
    const res = await postBundle(admin, zip);
    expect(res.statusCode, res.body).toBe(400);
    const errors = res.json<{ errors: SeasonProblem[] }>().errors;
    expect(errors.map((e) => [e.path, e.message])).toEqual([
      ['community.image', 'images/runners.png: The image must be a JPEG or PNG picture'],
      ['series.0.games.0.image', 'No file ./images/week.jpg in the .zip, and no uploaded image of that name'],
    ]);
    expect(await contentCounts(t.ctx.db)).toEqual(before);
  });

  it('answers a bomb or an oversized bundle with nothing written', async () => {
    const before = await contentCounts(t.ctx.db);
    const doc = seasonDoc(future());
    const bomb = await zipOf({ 'season.yaml': stringify(doc), 'x.png': Buffer.alloc(4 * 1024 * 1024) });
    const res = await postBundle(admin, bomb);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].message).toMatch(/zip bomb/);
    const huge = await postBundle(admin, randomBytes(BUNDLE_LIMITS.maxBytes + 10));
    expect(huge.statusCode).toBe(413);
    expect(await contentCounts(t.ctx.db)).toEqual(before);
  });

  it('says a picture or any other binary chosen in the form is not a season, not where its YAML broke', async () => {
    for (const bytes of [
      await pngBytes(20, 20),
      await jpegBytes(),
      Buffer.from([0x25, 0x50, 0x44, 0x46, 0, 1]),
    ]) {
      const res = await postBundle(admin, bytes, { dryRun: true });
      expect([res.statusCode, res.body]).toEqual([
        400,
        'This file is not a season: choose a .zip, .yaml or .json file',
      ]);
    }
  });

  it('takes a raw application/zip body too, and a dry run of it stores no picture', async () => {
    const doc = illustrated(future());
    // Pictures of their own, so no earlier import stored them.
    const zip = await zipOf({
      'season.yaml': stringify(doc),
      'images/runners.png': await pngBytes(90, 90),
      'images/week.jpg': await jpegBytes(91, 91),
      'images/park.jpg': await jpegBytes(92, 92),
    });
    const stored = () => readdirSync(path.join(t.ctx.uploadsDir, 'games')).sort();
    const before = stored();
    const res = await admin.request('POST', '/api/host/import?dry_run=1', {
      multipart: { body: zip, contentType: 'application/zip' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ dry_run: true, created: { communities: 1, games: 2 } });
    expect((await t.client().get(`/api/community/${doc.community.endpoint}`)).statusCode).toBe(404);
    expect(stored()).toEqual(before);
  });
});
