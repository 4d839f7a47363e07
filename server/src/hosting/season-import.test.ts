import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SeasonGameInput, SeasonImportResult } from '@hunch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { makeCommunity } from '../test/factories';
import { contentCounts, postSeason, seasonDoc, startAdminApp } from '../test/hosting-factories';
import { repoRoot } from '../test/server-process';
import type { TestApp, TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';

const DAY = 86_400_000;
const counts = (communities: number, series: number, games: number, questions: number) => ({
  communities,
  series,
  games,
  questions,
});

describe.each(dbKinds)('season import and export (%s)', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    ({ t, admin } = await startAdminApp(kind));
  });
  afterAll(() => t.close());

  const future = () => new Date(t.clock.now.getTime() + 10 * DAY);

  it('creates a community from YAML, then finds the same file unchanged, in YAML and in JSON', async () => {
    const doc = seasonDoc(future());
    const first = await postSeason(admin, doc);
    expect(first.statusCode, first.body).toBe(200);
    const created = first.json<SeasonImportResult>();
    expect(created).toMatchObject({
      created: counts(1, 1, 2, 10),
      updated: counts(0, 0, 0, 0),
      unchanged: counts(0, 0, 0, 0),
      dry_run: false,
    });
    expect(created.games.map((g) => [g.series, g.key])).toEqual([
      ['weekly-picks', 'week-1'],
      ['weekly-picks', 'week-2'],
    ]);
    for (const format of ['yaml', 'json'] as const) {
      const again = await postSeason(admin, doc, { format });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json<SeasonImportResult>()).toMatchObject({
        created: counts(0, 0, 0, 0),
        updated: counts(0, 0, 0, 0),
        unchanged: counts(1, 1, 2, 10),
        games: created.games,
      });
    }
    // The games are there for players, with their questions.
    const game = await t.client().get(`/api/game/${created.games[0]!.uuid}`);
    expect(game.json()).toMatchObject({ name: 'Game week-1', question_count: 5, state: 'closed' });
  });

  it('updates an edited file in place: the uuids stay, only what changed counts as updated', async () => {
    const doc = seasonDoc(future());
    const first = (await postSeason(admin, doc)).json<SeasonImportResult>();
    const edited = structuredClone(doc);
    edited.community.name = 'Renamed club';
    const week2 = edited.series![0]!.games![1]!;
    week2.questions[0] = {
      kind: 'vote',
      text: 'Best trail now?',
      choices: ['River loop', 'Hill climb', 'Park'],
    };
    week2.schedule.complete = new Date(Date.parse(week2.schedule.complete) + 3_600_000).toISOString();
    edited.series![0]!.games!.push({ ...structuredClone(week2), key: 'week-3', schedule: shifted(week2, 1) });
    const res = await postSeason(admin, edited);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<SeasonImportResult>();
    expect(result).toMatchObject({
      created: counts(0, 0, 1, 5),
      updated: counts(1, 0, 1, 1),
      unchanged: counts(0, 1, 1, 9),
    });
    expect(result.games.slice(0, 2)).toEqual(first.games);
    const game = (await t.client().get(`/api/game/${first.games[1]!.uuid}`)).json();
    expect(game.schedule.complete).toBe(new Date(week2.schedule.complete).toISOString());
    expect((await t.client().get(`/api/community/${doc.community.endpoint}`)).json().name).toBe(
      'Renamed club',
    );
  });

  it('exports YAML and JSON that import back with nothing changed', async () => {
    const doc = seasonDoc(future());
    await postSeason(admin, doc);
    const yaml = await admin.get(`/api/host/export/${doc.community.endpoint}`);
    expect(yaml.statusCode).toBe(200);
    expect(yaml.headers['content-type']).toMatch(/^application\/yaml/);
    expect(parseYaml(yaml.body).series[0].games[0].questions[2].outcome).toBe('pending');
    const back = await postSeason(admin, yaml.body);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ created: counts(0, 0, 0, 0), updated: counts(0, 0, 0, 0) });

    const json = await admin.request(
      'GET',
      `/api/host/export/${doc.community.endpoint}`,
      {},
      {
        headers: { accept: 'application/json' },
      },
    );
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    const fromJson = await postSeason(admin, json.body, { format: 'json' });
    expect(fromJson.json()).toMatchObject({ updated: counts(0, 0, 0, 0), unchanged: counts(1, 1, 2, 10) });
  });

  it('imports the commented example of docs/ as it stands', async () => {
    for (const endpoint of ['north-side', 'south-side']) await makeCommunity(t.ctx.db, { endpoint });
    const text = await readFile(path.join(repoRoot, 'docs/season-example.yaml'), 'utf8');
    const res = await postSeason(admin, text);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: counts(1, 1, 2, 6) });
    const game = (await t.client().get(`/api/game/${res.json<SeasonImportResult>().games[0]!.uuid}`)).json();
    expect(Object.keys(game.subcommunities)).toEqual(['north-side', 'south-side']);
  });

  it('keeps the settings a file leaves out (a file that only adds a series); empty values clear them', async () => {
    const doc = seasonDoc(future());
    doc.community.listed = false;
    doc.series![0]!.description = 'Every week';
    expect((await postSeason(admin, doc)).statusCode).toBe(200);
    const exported = async () =>
      parseYaml((await admin.get(`/api/host/export/${doc.community.endpoint}`)).body);
    const before = await exported();
    const partial = {
      community: { endpoint: doc.community.endpoint, name: doc.community.name },
      series: [
        { endpoint: 'weekly-picks', name: 'Weekly Picks' },
        { endpoint: 'extra', name: 'Extra' },
      ],
    };
    const res = await postSeason(admin, partial);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      created: counts(0, 1, 0, 0),
      updated: counts(0, 0, 0, 0),
      unchanged: counts(1, 1, 0, 0),
    });
    const after = await exported();
    expect(after.community).toEqual(before.community);
    expect(after.community).toMatchObject({ listed: false, description: 'Weekly picks for the club' });
    expect(after.series[0].description).toBe('Every week');
    // Said outright, empty is empty.
    const cleared = await postSeason(admin, {
      community: { ...partial.community, description: '', categories: [] },
      series: [{ endpoint: 'weekly-picks', name: 'Weekly Picks', description: '' }],
    });
    expect(cleared.json()).toMatchObject({ updated: counts(1, 1, 0, 0) });
    const emptied = await exported();
    expect(emptied.community.description).toBeUndefined();
    expect(emptied.community.categories).toEqual([]);
    expect(emptied.community.listed).toBe(false);
    expect(emptied.series[0].description).toBeUndefined();
  });

  it('leaves an unlisted community out of search, still found by its address', async () => {
    const doc = seasonDoc(future());
    doc.community.listed = false;
    expect((await postSeason(admin, doc)).statusCode).toBe(200);
    const search = (await t.client().get('/api/community_search')).json();
    const endpoints = search.communities.map((c: { endpoint: string }) => c.endpoint);
    expect(endpoints).not.toContain(doc.community.endpoint);
    expect((await t.client().get(`/api/community/${doc.community.endpoint}`)).statusCode).toBe(200);
    doc.community.listed = true;
    expect((await postSeason(admin, doc)).json().updated.communities).toBe(1);
    const again = (await t.client().get('/api/community_search')).json();
    expect(again.communities.map((c: { endpoint: string }) => c.endpoint)).toContain(doc.community.endpoint);
  });

  it('refuses, from the page of one community, a file for another, and writes nothing', async () => {
    const other = seasonDoc(future());
    expect((await postSeason(admin, other)).statusCode).toBe(200);
    const before = await contentCounts(t.ctx.db);
    const doc = seasonDoc(future());
    doc.community.name = 'Renamed By Mistake';
    for (const dryRun of [true, false]) {
      const res = await postSeason(admin, doc, { dryRun, into: other.community.endpoint });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors).toEqual([
        {
          path: 'community.endpoint',
          message: `This file is for a community ${doc.community.endpoint}, which does not exist: to import it into ${other.community.endpoint}, change community.endpoint to ${other.community.endpoint}`,
          line: 2,
          column: 13,
        },
      ]);
    }
    expect(await contentCounts(t.ctx.db)).toEqual(before);
    expect((await t.client().get(`/api/community/${doc.community.endpoint}`)).statusCode).toBe(404);
    // Its own page imports it, and a community name that is not one is a plain 400.
    expect((await postSeason(admin, other, { into: other.community.endpoint })).statusCode).toBe(200);
    const bad = await postSeason(admin, other, { into: 'a\u0000b' });
    expect([bad.statusCode, bad.body]).toEqual([400, 'dry_run is 1 or 0, and community names one community']);
    // A file for a community that exists points to that community's page.
    const third = seasonDoc(future());
    expect((await postSeason(admin, third)).statusCode).toBe(200);
    const misplaced = await postSeason(admin, third, { dryRun: true, into: other.community.endpoint });
    expect(misplaced.json().errors[0].message).toBe(
      `This file is for the community ${third.community.endpoint}, not ${other.community.endpoint}: import it on that community's page, or change community.endpoint`,
    );
  });

  it('dry run reports what it would do and writes nothing', async () => {
    const before = await contentCounts(t.ctx.db);
    const doc = seasonDoc(future());
    const res = await postSeason(admin, doc, { dryRun: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      created: counts(1, 1, 2, 10),
      dry_run: true,
      games: [
        { series: 'weekly-picks', key: 'week-1', uuid: null },
        { series: 'weekly-picks', key: 'week-2', uuid: null },
      ],
    });
    expect(await contentCounts(t.ctx.db)).toEqual(before);
    expect((await t.client().get(`/api/community/${doc.community.endpoint}`)).statusCode).toBe(404);
  });
});

/** The game's schedule moved by whole days. */
function shifted(game: SeasonGameInput, days: number) {
  const move = (iso: string) => new Date(Date.parse(iso) + days * DAY).toISOString();
  return {
    open: move(game.schedule.open),
    standby: move(game.schedule.standby),
    complete: move(game.schedule.complete),
  };
}
