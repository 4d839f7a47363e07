import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emojiFile, pictureSvg } from '../platform/emoji-picture';
import { startTestApp, type TestApp } from '../test/test-app';
import { dbKinds } from '../test/test-db';
import { demoCommunities, questionSets } from './demo-content';
import { communityEmoji, gameEmoji, questionEmoji, seriesEmoji } from './demo-pictures';
import { demoSeasons } from './demo-seasons';
import { seedDemoIfEmpty } from './demo-seed';
import { liveEmoji } from './live-pictures';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const distinct = (values: string[]) => new Set(values).size === values.length;

describe('the demo pictures', () => {
  it('name an existing Twemoji for every community, series, game and question, none twice in a kind', async () => {
    const seasons = await demoSeasons(new Date());
    const series = seasons.flatMap((s) => (s.season.series ?? []).map((x) => `${s.endpoint}/${x.endpoint}`));
    const games = seasons.flatMap((s) =>
      (s.season.series ?? []).flatMap((x) =>
        (x.games ?? []).map((g) => `${s.endpoint}/${x.endpoint}/${g.key}`),
      ),
    );
    expect(Object.keys(communityEmoji).sort()).toEqual(demoCommunities.map((c) => c.endpoint).sort());
    expect(Object.keys(seriesEmoji).sort()).toEqual(series.sort());
    expect(Object.keys(gameEmoji).sort()).toEqual(games.sort());
    for (const set of questionSets) expect(questionEmoji[set.theme]).toHaveLength(set.questions.length);
    const tables = [
      Object.values(communityEmoji),
      Object.values(seriesEmoji),
      // The live games' pictures take turns after the seeded games': none is one of theirs.
      [...Object.values(gameEmoji), ...liveEmoji],
      Object.values(questionEmoji).flat(),
    ];
    for (const codes of tables) {
      expect(distinct(codes)).toBe(true);
      for (const code of codes) expect([code, existsSync(emojiFile(code))]).toEqual([code, true]);
    }
  });

  it('are drawn as distinct PNG pictures at their folder size: no two communities, series, games or questions alike', async () => {
    const started = performance.now();
    const seasons = await demoSeasons(new Date());
    console.info(`demo pictures: ${Math.round(performance.now() - started)} ms`);
    const files = new Map(seasons.flatMap((s) => [...s.files]));
    const byKind = (pattern: RegExp) => [...files].filter(([name]) => pattern.test(name));
    const communities = seasons.map((s) => s.season.community.image!);
    const series = seasons.flatMap((s) => (s.season.series ?? []).map((x) => x.image!));
    const games = seasons.flatMap((s) =>
      (s.season.series ?? []).flatMap((x) => (x.games ?? []).map((g) => g.image!)),
    );
    const questions = byKind(/^images\/question-/).map(([name]) => name);
    expect(questions).toHaveLength(questionSets.length * 5);
    for (const names of [communities, series, games, questions]) {
      expect(distinct(names)).toBe(true);
      expect(distinct(names.map((n) => sha(files.get(n)!)))).toBe(true);
    }
    const meta = await sharp(files.get(communities[0]!)!).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 640, 360]);
    // Every game of every season names a picture for each of its questions.
    for (const s of seasons) {
      for (const q of (s.season.series ?? []).flatMap((x) => (x.games ?? []).flatMap((g) => g.questions))) {
        expect(files.has(q.image!)).toBe(true);
      }
    }
  });

  it("draw a community's series and games in the community's colours", () => {
    const spec = { emoji: '1f3ac', width: 640, height: 360 } as const;
    const colours = (svg: string) => [...svg.matchAll(/stop-color="([^"]+)"/g)].map((m) => m[1]);
    const community = pictureSvg({ ...spec, hue: 0, style: 'community' });
    expect(colours(pictureSvg({ ...spec, hue: 0, style: 'series' }))).toEqual(colours(community));
    expect(colours(pictureSvg({ ...spec, hue: 0, style: 'game' }))).toEqual(colours(community));
    expect(colours(pictureSvg({ ...spec, hue: 120, style: 'community' }))).not.toEqual(colours(community));
  });
});

describe.each(dbKinds)('the seeded demo shows its pictures (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
    await seedDemoIfEmpty(t.ctx, { players: 30 });
  }, 120_000);
  afterAll(() => t?.close());

  /** The bytes a browser gets for a picture. */
  const picture = async (folder: string, name: string) => {
    const res = await t.app.inject({ url: `/assets/${folder}/${name}` });
    expect([name, res.statusCode]).toEqual([name, 200]);
    return sha(res.rawPayload);
  };

  it('every community, series and game of the demo has a picture of its own', async () => {
    const client = t.client();
    const listed: { endpoint: string; image: string }[] = (await client.get('/api/community_search')).json()
      .communities;
    const demo = listed.filter((c) => demoCommunities.some((d) => d.endpoint === c.endpoint));
    expect(demo).toHaveLength(demoCommunities.length);
    const communityPictures = await Promise.all(demo.map((c) => picture('communities', c.image)));
    expect(distinct(communityPictures)).toBe(true);

    const seriesPictures: string[] = [];
    const gamePictures: string[] = [];
    for (const c of demo) {
      const page = (await client.get(`/api/community/${c.endpoint}`)).json();
      for (const s of page.series as { endpoint: string; image: string }[]) {
        seriesPictures.push(await picture('games', s.image));
        const series = (await client.get(`/api/series/${c.endpoint}/${s.endpoint}`)).json();
        for (const g of series.games as { image: string }[])
          gamePictures.push(await picture('games', g.image));
      }
    }
    expect(seriesPictures).toHaveLength(Object.keys(seriesEmoji).length);
    expect(gamePictures).toHaveLength(Object.keys(gameEmoji).length);
    expect(distinct(seriesPictures)).toBe(true);
    expect(distinct(gamePictures)).toBe(true);
    // No game falls back to its series' picture.
    expect(gamePictures.filter((g) => seriesPictures.includes(g))).toEqual([]);
  });
});
