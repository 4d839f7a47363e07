import {
  noTimeToEnter,
  type SeasonImportResult,
  type SeasonInput,
  type SeasonProblem,
} from '@hunch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument, stringify } from 'yaml';
import { contentCounts, postSeason, seasonDoc, startAdminApp } from '../test/hosting-factories';
import type { TestApp, TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// biome-ignore lint/suspicious/noExplicitAny: the tests write documents the schema must refuse.
type Loose = any;

describe.each(dbKinds)('season import refusals (%s)', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    ({ t, admin } = await startAdminApp(kind));
  });
  afterAll(() => t.close());

  const future = () => new Date(t.clock.now.getTime() + 10 * DAY);
  const problemsOf = async (doc: SeasonInput | string, format: 'yaml' | 'json' = 'yaml') => {
    const res = await postSeason(admin, doc, { format });
    expect(res.statusCode, res.body).toBe(400);
    return res.json<{ errors: SeasonProblem[] }>().errors;
  };

  it('refuses a game whose window is no time, unless it opened already with it (its times stay)', async () => {
    const doc = seasonDoc(future()) as Loose;
    const first = doc.series[0].games[0];
    first.schedule.standby = first.schedule.open;
    first.synchronous = true;
    doc.series[0].games[1].schedule.standby = doc.series[0].games[1].schedule.open;
    expect((await problemsOf(doc)).map((p) => [p.path, p.message])).toEqual([
      ['series.0.games.0.schedule.standby', noTimeToEnter(true)],
      ['series.0.games.1.schedule.standby', noTimeToEnter(false)],
    ]);
    // A game stored that way before the rule, and opened since: saving its community again goes.
    const opened = seasonDoc(new Date(t.clock.now.getTime() - DAY)) as Loose;
    const saved = await postSeason(admin, opened);
    expect(saved.statusCode, saved.body).toBe(200);
    const uuid = saved.json<SeasonImportResult>().games[0]!.uuid;
    await t.ctx.db.query('UPDATE games SET standby_at = open_at WHERE id = $1', [uuid]);
    opened.series[0].games[0].schedule.standby = opened.series[0].games[0].schedule.open;
    const again = await postSeason(admin, opened);
    expect(again.statusCode, again.body).toBe(200);
  });

  it("takes a live game's file again after its results came early, as its live part ended", async () => {
    const doc = seasonDoc(new Date(t.clock.now.getTime() - DAY - 3 * HOUR)) as Loose;
    Object.assign(doc.series[0].games[0], { synchronous: true, speed_bonus: false });
    const first = await postSeason(admin, doc);
    expect(first.statusCode, first.body).toBe(200);
    const uuid = first.json<SeasonImportResult>().games[0]!.uuid;
    // What the live conductor does as the last question ends: complete comes forward to then.
    await t.ctx.db.query("UPDATE games SET complete_at = complete_at - interval '40 minutes' WHERE id = $1", [
      uuid,
    ]);
    const again = await postSeason(admin, doc);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<SeasonImportResult>().updated).toMatchObject({ games: 0 });
    // The results time stays the one the game had.
    const { rows } = await t.ctx.db.query<{ moved: boolean }>(
      'SELECT complete_at < $2::timestamptz AS moved FROM games WHERE id = $1',
      [uuid, doc.series[0].games[0].schedule.complete],
    );
    expect(rows[0]!.moved).toBe(true);
  });

  it('refuses a game name that turns the text around, and stores a right-to-left one', async () => {
    // The review's spoof: '\u202eevil' shows players 'live'.
    const doc = seasonDoc(future()) as Loose;
    doc.series[0].games[0].name = '\u202eevil';
    expect((await problemsOf(doc)).map((p) => [p.path, p.message])).toEqual([
      ['series.0.games.0.name', 'The game name holds an invisible text-direction character'],
    ]);
    doc.series[0].games[0].name = 'משחק \u200fראשון';
    const saved = await postSeason(admin, doc);
    expect(saved.statusCode, saved.body).toBe(200);
    const uuid = saved.json<SeasonImportResult>().games[0]!.uuid;
    const { rows } = await t.ctx.db.query<{ name: string }>('SELECT name FROM games WHERE id = $1', [uuid]);
    expect(rows[0]!.name).toBe('משחק \u200fראשון');
  });

  it('gives YAML syntax errors their line and column', async () => {
    const errors = await problemsOf('community:\n  endpoint: a-club\n  name: [unclosed\nseries: []\n');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ path: '', line: 4, column: 1 });
    expect(errors[0]!.message).toMatch(/^YAML syntax error at line 4, column 1/);
    const dup = await problemsOf('community:\n  endpoint: a-club\n  endpoint: b-club\n');
    expect(dup[0]).toMatchObject({ line: 3, column: 3 });
  });

  it('names the one broken line of a YAML file, not the errors that follow from it', async () => {
    const lines = stringify(seasonDoc(future())).split('\n');
    // One line out of place in a host's exported file: the reader finds dozens of errors after it.
    lines.splice(8, 0, '   bad: [unclosed');
    const text = lines.join('\n');
    expect(parseDocument(text).errors.length, 'the reader finds several errors').toBeGreaterThan(1);
    const errors = await problemsOf(text);
    expect(errors).toHaveLength(1);
    // Where the reader noticed: the line itself or the next.
    expect([9, 10]).toContain(errors[0]!.line);
    expect(errors[0]!.message).toMatch(
      /^YAML syntax error at line (9|10), column \d+: .+ \(the \d+ errors? the reader found after it may follow from this one: fix it first\)$/,
    );
    // Keys given twice are each their own mistake: all of them are listed.
    const twice = await problemsOf(
      'community:\n  endpoint: a-club\n  endpoint: b-club\n  name: A\n  name: B\n',
    );
    expect(twice.map((e) => e.line)).toEqual([3, 5]);
  });

  it('gives JSON syntax errors their line and column', async () => {
    const errors = await problemsOf('{\n  "community": {\n    "endpoint": "abc",\n  }\n}', 'json');
    expect(errors[0]).toMatchObject({ path: '', line: 4, column: 3 });
  });

  it('places each problem of a YAML file at its line and column', async () => {
    const doc = seasonDoc(future()) as Loose;
    doc.series[0].games[1].questions[2].slider.max = -5;
    const text = stringify(doc);
    const errors = await problemsOf(text);
    expect(errors).toEqual([
      expect.objectContaining({
        path: 'series.0.games.1.questions.2.slider.max',
        message: 'max must be above min',
      }),
    ]);
    const line = text.split('\n')[errors[0]!.line! - 1]!;
    expect(line.slice(errors[0]!.column! - 1)).toBe('-5');
  });

  it('checks what the file names against the database, every problem at its path', async () => {
    const doc = seasonDoc(future()) as Loose;
    doc.community.categories.push('No such category');
    const game = doc.series[0].games[0];
    game.subcommunities = ['nowhere-land'];
    game.image = 'missing.jpg';
    game.questions[0].choices[2] = { text: 'Park', image: '../../etc/passwd' };
    // A live game must still be running its questions at its complete time.
    doc.series[0].games[1].synchronous = true;
    doc.series[0].games[1].schedule.complete = doc.series[0].games[1].schedule.standby;
    const errors = await problemsOf(doc);
    expect(errors.map((e) => e.path).sort()).toEqual(
      [
        'community.categories.1',
        'series.0.games.0.image',
        'series.0.games.0.questions.0.choices.2.image',
        'series.0.games.0.subcommunities.0',
        'series.0.games.1.schedule.complete',
      ].sort(),
    );
    expect(errors.find((e) => e.path === 'community.categories.1')!.message).toMatch(/category_groups/);
    expect(errors.every((e) => typeof e.line === 'number')).toBe(true);
  });

  it('refuses to move an existing category to another group', async () => {
    const first = seasonDoc(future());
    expect((await postSeason(admin, first)).statusCode).toBe(200);
    const second = seasonDoc(future()) as Loose;
    second.community.categories = [first.community.categories![0]];
    second.category_groups = { Elsewhere: [first.community.categories![0]] };
    const errors = await problemsOf(second);
    expect(errors).toEqual([
      expect.objectContaining({
        path: 'category_groups.Elsewhere.0',
        message: expect.stringMatching(/Test sports/),
      }),
    ]);
  });

  it('refuses a standby time that a game of the series not in the file already has', async () => {
    const doc = seasonDoc(future()) as Loose;
    expect((await postSeason(admin, doc)).statusCode).toBe(200);
    doc.series[0].games = [{ ...doc.series[0].games[0], key: 'other-week' }];
    const errors = await problemsOf(doc);
    expect(errors.map((e) => e.path)).toEqual(['series.0.games.0.schedule.standby']);
  });

  it('writes nothing of a refused file, and nothing of a file that fails midway (one transaction)', async () => {
    const before = await contentCounts(t.ctx.db);
    const doc = seasonDoc(future()) as Loose;
    doc.series[0].games[1].questions[0].text = 'x'.repeat(301);
    await problemsOf(doc);
    expect(await contentCounts(t.ctx.db)).toEqual(before);

    // A fault the checks cannot foresee, raised by the database on the last question written.
    await t.ctx.db.exec(`
      CREATE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.text = 'boom' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER refuse_boom BEFORE INSERT ON questions FOR EACH ROW EXECUTE FUNCTION refuse_boom();`);
    try {
      const faulty = seasonDoc(future()) as Loose;
      faulty.series[0].games[1].questions[4].text = 'boom';
      const res = await postSeason(admin, faulty);
      expect(res.statusCode).toBe(500);
      expect(await contentCounts(t.ctx.db)).toEqual(before);
      expect((await t.client().get(`/api/community/${faulty.community.endpoint}`)).statusCode).toBe(404);
    } finally {
      await t.ctx.db.exec('DROP TRIGGER refuse_boom ON questions; DROP FUNCTION refuse_boom();');
    }
  });

  it('answers 413 for a document over 2 MB and 415 for a body that is no season', async () => {
    const big = `community: {endpoint: big-one, name: Big}\n# ${'x'.repeat(2 * 1024 * 1024)}\n`;
    expect((await postSeason(admin, big)).statusCode).toBe(413);
    const form = await admin.post('/api/host/import', { form: { season: 'community: {}' } });
    expect(form.statusCode).toBe(415);
    expect(form.body).toMatch(/application\/yaml/);
    const wrongField = await admin.request('POST', '/api/host/import', {
      multipart: {
        body: Buffer.from(
          '--b\r\nContent-Disposition: form-data; name="file"; filename="s.yaml"\r\n\r\nx: 1\r\n--b--\r\n',
        ),
        contentType: 'multipart/form-data; boundary=b',
      },
    });
    expect([wrongField.statusCode, wrongField.body]).toEqual([400, expect.stringMatching(/field season/)]);
  });

  describe('a game that has opened', () => {
    let doc: Loose;
    let uuid: string;
    beforeAll(async () => {
      doc = seasonDoc(new Date(t.clock.now.getTime() - HOUR));
      // week-1 opened 23 hours ago; its standby is 2 hours after, its complete 3 hours after.
      doc.series[0].games[0].schedule = {
        open: new Date(t.clock.now.getTime() - HOUR).toISOString(),
        standby: new Date(t.clock.now.getTime() + HOUR).toISOString(),
        complete: new Date(t.clock.now.getTime() + 2 * HOUR).toISOString(),
      };
      const res = await postSeason(admin, doc);
      expect(res.statusCode, res.body).toBe(200);
      uuid = res.json<SeasonImportResult>().games[0]!.uuid!;
    });
    const edit = (change: (g: Loose) => void) => {
      const copy = structuredClone(doc);
      change(copy.series[0].games[0]);
      return copy;
    };

    it('keeps its questions and choices locked: a 400 at the game’s path, nothing written', async () => {
      const before = await contentCounts(t.ctx.db);
      for (const change of [
        (g: Loose) => (g.questions[0].text = 'Another text'),
        (g: Loose) => {
          g.questions[0].choices.push('Beach');
          g.questions[1].choices.push('Beach');
        },
        (g: Loose) => (g.questions[3].slider.unit = 'minutes'),
        (g: Loose) => g.questions.pop(),
        (g: Loose) => (g.questions[4].secs_to_answer = 40),
      ]) {
        const errors = await problemsOf(edit(change));
        expect(errors.map((e) => e.path)).toEqual(['series.0.games.0']);
        expect(errors[0]!.message).toMatch(/questions and choices can no longer change/);
      }
      const outcome = await problemsOf(edit((g) => (g.questions[4].outcome = 13)));
      expect(outcome.map((e) => e.path)).toEqual(['series.0.games.0.questions.4.outcome']);
      expect(await contentCounts(t.ctx.db)).toEqual(before);
    });

    it('keeps its open time and how it is played, and lets standby and complete only move later', async () => {
      const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
      const errors = await problemsOf(
        edit((g) => {
          g.schedule.open = later(g.schedule.open, -HOUR);
          g.schedule.standby = later(g.schedule.standby, -HOUR / 2);
          g.speed_bonus = true;
        }),
      );
      expect(errors.map((e) => e.path).sort()).toEqual(
        [
          'series.0.games.0.schedule.open',
          'series.0.games.0.schedule.standby',
          'series.0.games.0.speed_bonus',
        ].sort(),
      );
      const extended = edit((g) => {
        g.name = 'Week one';
        g.schedule.standby = later(g.schedule.standby, HOUR);
        g.schedule.complete = later(g.schedule.complete, HOUR);
      });
      const res = await postSeason(admin, extended);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        updated: { games: 1, questions: 0 },
        games: [{ uuid }, expect.anything()],
      });
      const game = (await t.client().get(`/api/game/${uuid}`)).json();
      expect(game.name).toBe('Week one');
      expect(game.schedule.standby).toBe(extended.series[0].games[0].schedule.standby);
      doc = extended;
    });
  });
});
