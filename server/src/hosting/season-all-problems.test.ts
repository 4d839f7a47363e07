import type { SeasonImportResult, SeasonInput, SeasonProblem } from '@hunch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentCounts, postSeason, seasonDoc, startAdminApp } from '../test/hosting-factories';
import type { TestApp, TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';

// A refused import lists every problem of the document at once (hosting spec §4): the problems of
// its shape, of the season as a whole and of what is stored, not one round after another.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// biome-ignore lint/suspicious/noExplicitAny: the tests write documents the schema must refuse.
type Loose = any;
type Expected = [path: string, message: string | RegExp];

describe.each(dbKinds)('season import: every problem in one answer (%s)', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    ({ t, admin } = await startAdminApp(kind));
  });
  afterAll(() => t.close());

  const future = () => new Date(t.clock.now.getTime() + 10 * DAY);

  /** The problems of a refused import and of its dry run, which must be the same; nothing written. */
  async function refused(doc: SeasonInput | Loose, opts: { ifMatch?: string } = {}) {
    const before = await contentCounts(t.ctx.db);
    const answers: SeasonProblem[][] = [];
    for (const dryRun of [false, true]) {
      const res = await postSeason(admin, doc, { ...opts, dryRun });
      expect(res.statusCode, res.body).toBe(400);
      answers.push(res.json<{ errors: SeasonProblem[] }>().errors);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(await contentCounts(t.ctx.db)).toEqual(before);
    return answers[0]!;
  }

  const expectProblems = (errors: SeasonProblem[], expected: Expected[]) => {
    expect(errors.map((e) => e.path)).toEqual(expected.map(([path]) => path));
    for (const [i, [, message]] of expected.entries()) {
      if (typeof message === 'string') expect(errors[i]!.message).toBe(message);
      else expect(errors[i]!.message).toMatch(message);
    }
    expect(errors.every((e) => typeof e.line === 'number')).toBe(true);
  };

  it('lists shape, season and stored-state problems of one new document together, in document order', async () => {
    const doc = seasonDoc(future()) as Loose;
    const category = doc.community.categories[0];
    doc.community.categories.push(category, 'No such category');
    doc.category_groups.Elsewhere = [category];
    const [first, second] = doc.series[0].games;
    first.subcommunities = ['nowhere-land'];
    first.image = 'missing.jpg';
    second.questions[3].slider.step = 'half';
    // A game that does not parse is still checked within itself, on the parts that do (spec §4:
    // every problem in one answer); against the database only once it parses.
    second.schedule.complete = first.schedule.open;
    second.subcommunities = ['nowhere-else'];
    expectProblems(await refused(doc), [
      ['community.categories.1', /listed twice/],
      ['community.categories.2', /No category No such category exists/],
      ['category_groups.Elsewhere.0', /also in group Test sports/],
      ['series.0.games.0.subcommunities.0', 'No community has the endpoint nowhere-land'],
      ['series.0.games.0.image', /No uploaded image named missing\.jpg/],
      ['series.0.games.1.schedule.complete', 'Results must not come before submissions close'],
      ['series.0.games.1.questions.3.slider.step', 'Expected a number'],
    ]);
  });

  it('checks a stored game that opened while another part of the file does not parse', async () => {
    const doc = seasonDoc(new Date(t.clock.now.getTime() - HOUR)) as Loose;
    doc.series[0].games[0].schedule = {
      open: new Date(t.clock.now.getTime() - HOUR).toISOString(),
      standby: new Date(t.clock.now.getTime() + HOUR).toISOString(),
      complete: new Date(t.clock.now.getTime() + 2 * HOUR).toISOString(),
    };
    const res = await postSeason(admin, doc);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<SeasonImportResult>().games).toHaveLength(2);

    const edited = structuredClone(doc);
    edited.series[0].games[0].questions[0].text = 'Another text';
    edited.series[0].games[1].questions[0].kind = 'poll';
    edited.series[0].games[1].subcommunities = ['nowhere-land'];
    // A second series of the same endpoint: its games are not compared with the first's stored ones.
    edited.series.push({ endpoint: 'weekly-picks', name: 'Again', games: [edited.series[0].games[0]] });
    expectProblems(await refused(edited), [
      ['series.0.games.0', /questions and choices can no longer change/],
      ['series.0.games.1.questions.0.kind', 'kind is one of vote, guess or predict'],
      ['series.1.endpoint', /Another series of this file has the endpoint weekly-picks/],
    ]);
  });

  it("says an opened game's passed time stays and its time ahead may only move later, at their paths", async () => {
    const now = t.clock.now.getTime();
    const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
    const doc = seasonDoc(new Date(now - 2 * HOUR)) as Loose;
    doc.series[0].endpoint = 'locked-times';
    doc.series[0].games = [doc.series[0].games[0]];
    doc.series[0].games[0].schedule = {
      open: iso(now - 2 * HOUR),
      standby: iso(now - HOUR),
      complete: iso(now + HOUR),
    };
    const res = await postSeason(admin, doc);
    expect(res.statusCode, res.body).toBe(200);

    const edited = structuredClone(doc);
    edited.series[0].games[0].schedule.standby = iso(now - HOUR / 2);
    edited.series[0].games[0].schedule.complete = iso(now + HOUR / 2);
    // The place names the field (the file's key, or the console's label): the sentence does not.
    expectProblems(await refused(edited), [
      ['series.0.games.0.schedule.standby', `This time has passed: it stays ${iso(now - HOUR)}`],
      [
        'series.0.games.0.schedule.complete',
        `This game opened at ${iso(now - 2 * HOUR)}: this time may only move later (it is saved as ${iso(now + HOUR)})`,
      ],
    ]);
  });

  it('checks the sound games of a series and a community whose own fields do not parse', async () => {
    const doc = seasonDoc(future()) as Loose;
    doc.community.name = '';
    // Not reported: the community block does not parse, so its categories are not looked up.
    doc.community.categories.push('No such category');
    doc.series[0].name = '';
    doc.series[0].games[0].subcommunities = ['nowhere-land', 'nowhere-land'];
    doc.series[0].games[1].schedule.complete = doc.series[0].games[1].schedule.open;
    expectProblems(await refused(doc), [
      ['community.name', 'The community name is empty'],
      ['series.0.name', 'The series name is empty'],
      // The unknown endpoint once, where it is first named; the repeat is its own problem.
      ['series.0.games.0.subcommunities.0', 'No community has the endpoint nowhere-land'],
      ['series.0.games.0.subcommunities.1', 'nowhere-land is listed twice'],
      ['series.0.games.1.schedule.complete', 'Results must not come before submissions close'],
    ]);
  });

  it('reports no follow-on problem of a part that does not parse', async () => {
    const doc = seasonDoc(future()) as Loose;
    // The guess links to this vote: with the vote unreadable, the link is not judged.
    doc.series[0].games[0].questions[0].choices = 'River loop';
    doc.series[0].games[0].subcommunities = ['nowhere-land'];
    // A category group that does not parse may be the one naming the community's new category.
    doc.category_groups['Test sports'].push('');
    expectProblems(await refused(doc), [
      ['category_groups.Test sports.1', 'A category is empty'],
      ['series.0.games.0.questions.0.choices', 'Expected a list'],
    ]);
  });

  it('names a category group called __proto__ or constructor, rather than lose it and blame its category', async () => {
    for (const name of ['__proto__', 'constructor']) {
      const doc = seasonDoc(future()) as Loose;
      doc.community.categories.push('Brand new');
      // As JSON.parse (and YAML) make it: a key of the object's own, not its prototype.
      Object.defineProperty(doc.category_groups, name, { value: ['Brand new'], enumerable: true });
      expectProblems(await refused(doc), [[`category_groups.${name}`, `A group may not be called ${name}`]]);
    }
  });

  it('looks nothing up for a file whose community cannot be read (nobody was authorized)', async () => {
    const doc = seasonDoc(future()) as Loose;
    doc.community.endpoint = 'No Spaces!';
    doc.series[0].games[0].subcommunities = ['nowhere-land'];
    doc.series[0].games[1].questions[0].choices[1] = 'River loop';
    expectProblems(await refused(doc), [
      ['community.endpoint', /^An endpoint is/],
      ['series.0.games.1.questions.0.choices.1', 'Choice River loop is listed twice'],
      ['series.0.games.1.questions.1.choices', /offers its choices, in its order/],
    ]);
  });

  it('answers the problems of a file over a stale version, not 412, leaving out the stored state', async () => {
    const doc = seasonDoc(future()) as Loose;
    expect((await postSeason(admin, doc)).statusCode).toBe(200);
    const version = String((await admin.get(`/api/host/export/${doc.community.endpoint}`)).headers.etag);
    doc.community.description = 'Changed by another tab';
    expect((await postSeason(admin, doc)).statusCode).toBe(200);

    const edited = structuredClone(doc);
    edited.community.name = '';
    // week-1 left out of the file keeps its standby time, which this game takes.
    edited.series[0].games = [
      { ...edited.series[0].games[0], key: 'other-week', subcommunities: ['nowhere-land'] },
    ];
    expectProblems(await refused(edited), [
      ['community.name', 'The community name is empty'],
      [
        'series.0.games.0.schedule.standby',
        /^Game week-1 of this series has this very standby time: each game of a series needs its own/,
      ],
      ['series.0.games.0.subcommunities.0', 'No community has the endpoint nowhere-land'],
    ]);
    // Over a version since changed, what is stored is not the host's to compare with.
    expectProblems(await refused(edited, { ifMatch: version }), [
      ['community.name', 'The community name is empty'],
      ['series.0.games.0.subcommunities.0', 'No community has the endpoint nowhere-land'],
    ]);
  });
});
