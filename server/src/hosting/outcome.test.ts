import type { GameState, SeasonImportResult, SeasonInput } from '@hunch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameClock } from '../games/game-clock';
import {
  adminName,
  holdImportLock,
  postSeason,
  signUp,
  startAdminApp,
  stillPendingAfter,
} from '../test/hosting-factories';
import { startTestApp, type TestApp, type TestClient } from '../test/test-app';
import { type DbKind, dbKinds } from '../test/test-db';

const HOUR = 3_600_000;

interface PlayedGame {
  t: TestApp;
  admin: TestClient;
  host: TestClient;
  players: { client: TestClient; name: string }[];
  uuid: string;
  announced: [string, GameState][];
  clocks: GameClock[];
  doc: SeasonInput;
  start: number;
}

/**
 * Outcomes and re-scoring (hosting spec §3), with the points worked out by hand from DESIGN §2:
 * a vote (A, B, C), a guess linked to it, and a predict on 0..100 whose outcome is pending.
 *   votes: p1 A, p2 A, p3 B -> A has 2, B 1; guess points round(100 × count / top):
 *   guesses: p1 A 100, p2 B 50, p3 A 100.
 *   predicts p1 50, p2 80, p3 20; points round(100 × (1 − |x − truth| / 100)²):
 *   truth 60: 81, 64, 36 -> totals 181, 114, 136; ranks 1, 3, 2; percentiles 100, 0, 50.
 *   truth 80: 49, 100, 16 -> totals 149, 150, 116; ranks 2, 1, 3.
 *   predict voided: totals 100, 50, 100; ranks 1, 3, 1 (standard competition ranking).
 * playedGame sets this game up, played by those three, with its hooks in the calling describe.
 */
function playedGame(kind: DbKind) {
  // The app and its clients come to life in beforeAll; the tests read them from here after that.
  const g = { players: [], announced: [] } as unknown as PlayedGame;
  const name = adminName();
  const start = Date.now();
  g.start = start;
  g.doc = {
    community: { endpoint: `outcomes-${start.toString(36)}`, name: 'Outcomes' },
    series: [
      {
        endpoint: 'weekly',
        name: 'Weekly',
        games: [
          {
            key: 'w1',
            schedule: {
              open: new Date(start - HOUR).toISOString(),
              standby: new Date(g.start + HOUR).toISOString(),
              complete: new Date(g.start + 2 * HOUR).toISOString(),
            },
            questions: [
              { kind: 'vote', text: 'Pick one', choices: ['A', 'B', 'C'] },
              { kind: 'guess', text: 'Most picked?', choices: ['A', 'B', 'C'], linked_vote: 1 },
              {
                kind: 'predict',
                text: 'How many?',
                slider: { min: 0, max: 100, step: 1 },
                outcome: 'pending',
              },
            ],
          },
        ],
      },
    ],
  };

  beforeAll(async () => {
    const t = await startTestApp(kind, { config: { adminUsers: [name] } });
    g.t = t;
    g.t.clock.now = new Date(start);
    g.admin = t.client();
    await signUp(g.admin, name);
    const res = await postSeason(g.admin, g.doc);
    expect(res.statusCode, res.body).toBe(200);
    g.uuid = res.json<SeasonImportResult>().games[0]!.uuid!;
    g.host = t.client();
    const hostName = await signUp(g.host);
    expect((await g.admin.put(`/api/host/hosts/${g.doc.community.endpoint}/${hostName}`)).statusCode).toBe(
      200,
    );
    const answers = [
      [0, 0, 50],
      [0, 1, 80],
      [1, 0, 20],
    ] as const;
    for (const [vote, guess, number] of answers) {
      const client = t.client();
      const player = { client, name: await signUp(client) };
      g.players.push(player);
      expect((await client.put(`/api/community_membership/${g.doc.community.endpoint}`)).statusCode).toBe(
        200,
      );
      expect(
        (await client.post(`/api/participation/${g.uuid}`, { json: { subcommunity: null } })).statusCode,
      ).toBe(200);
      for (const body of [
        { question_i: 0, choice_i: vote, number_answer: null },
        { question_i: 1, choice_i: guess, number_answer: null },
        { question_i: 2, choice_i: null, number_answer: number },
      ]) {
        const put = await client.put(`/api/answer/weekly/${g.uuid}`, { json: body });
        expect(put.statusCode, put.body).toBe(200);
      }
    }
    // Two processes' clocks: scoring is claimed in the database, so only one of them scores.
    g.clocks = [0, 1].map(() => new GameClock(t.ctx, (id, state) => g.announced.push([id, state])));
  });
  afterAll(() => g.t.close());

  return {
    g,
    outcome: (client: TestClient, body: object, i = 2) =>
      client.request('PUT', `/api/host/outcome/${g.uuid}/${i}`, { json: body }),
    board: async () => {
      const rows = (await g.players[0]!.client.get(`/api/leaderboard/${g.uuid}?p=1`)).json();
      return g.players.map((p) => [rows[p.name].s, rows[p.name].r, rows[p.name].p]);
    },
    tick: () => Promise.all(g.clocks.map((c) => c.tick())),
    game: async () => (await g.t.client().get(`/api/game/${g.uuid}`)).json(),
    audit: async () =>
      (await g.host.get(`/api/host/audit/${g.doc.community.endpoint}`))
        .json()
        .entries.filter((e: { action: string }) => /^(outcome|question)\./.test(e.action))
        .map((e: { action: string; old: unknown; new: unknown }) => [e.action, e.old, e.new]),
  };
}

const exportOf = (client: TestClient, endpoint: string) =>
  client.request('GET', `/api/host/export/${endpoint}`, {}, { headers: { accept: 'application/json' } });

describe.each(dbKinds)('entering, correcting and voiding outcomes (%s)', (kind) => {
  const { g, outcome, board, tick, game, audit } = playedGame(kind);
  const state = async () => (await game()).state;

  it('refuses an outcome before standby (409), off the slider or for a vote (400), and to others', async () => {
    const early = await outcome(g.host, { outcome: 60 });
    expect(early.statusCode).toBe(409);
    expect(early.body).toMatch(
      /^Outcomes are entered once answers have closed, at \d{4}-\d\d-\d\dT[\d:.]+Z$/,
    );
    g.t.clock.now = new Date(g.start + 90 * 60_000);
    const off = await outcome(g.host, { outcome: 101 });
    expect([off.statusCode, off.body]).toEqual([400, 'The outcome must lie on the slider, from 0 to 100']);
    expect((await outcome(g.host, { outcome: 1 }, 0)).statusCode).toBe(400);
    expect((await outcome(g.host, { outcome: 'sixty' })).statusCode).toBe(400);
    expect((await outcome(g.host, { outcome: 60 }, 7)).statusCode).toBe(404);
    expect((await outcome(g.players[0]!.client, { outcome: 60 })).statusCode).toBe(403);
    expect((await outcome(g.t.client(), { outcome: 60 })).statusCode).toBe(401);
  });

  it('keeps the game in results past complete until the outcome, then scores it exactly once', async () => {
    g.t.clock.now = new Date(g.start + 3 * HOUR);
    await tick();
    expect(await state()).toBe('results');
    // Two hosts press at once while both clocks tick: one scoring, one 'complete' announced.
    const [a, b] = await Promise.all([
      outcome(g.host, { outcome: 60 }),
      outcome(g.admin, { outcome: 60 }),
      tick(),
    ]);
    expect([a!.statusCode, b!.statusCode]).toEqual([200, 200]);
    await Promise.all([tick(), tick()]);
    expect(await state()).toBe('complete');
    expect(g.announced.filter(([id, s]) => id === g.uuid && s === 'complete')).toHaveLength(1);
    expect(await board()).toEqual([
      [181, 1, 100],
      [114, 3, 0],
      [136, 2, 50],
    ]);
  });

  it('re-scores a correction at once: scores, ranks, percentiles, community ranks and statistics', async () => {
    // `was`: the outcome the host saw, as the console sends it.
    const res = await outcome(g.host, { outcome: 80, was: 60 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().state).toBe('complete');
    expect(await board()).toEqual([
      [149, 2, 50],
      [150, 1, 100],
      [116, 3, 0],
    ]);
    const stats = (await g.players[0]!.client.get(`/api/question_stats/${g.uuid}`)).json();
    expect(JSON.stringify(stats)).toContain('"correct_numbers":[80]');
    const rank = await g.players[1]!.client.get(`/api/community_rank/${g.doc.community.endpoint}`);
    expect(rank.json()).toMatchObject({ s: 150, r: 1 });
  });

  it('refuses a correction of an outcome that changed meanwhile (409), and leaves it as it is', async () => {
    // The host's other tab still shows 60; the outcome is 80 since the correction above.
    const stale = await outcome(g.host, { outcome: 70, was: 60 });
    expect([stale.statusCode, stale.body]).toEqual([
      409,
      'The outcome of question 3 was changed meanwhile (it is now 80): check it, then enter yours again',
    ]);
    expect((await outcome(g.host, { outcome: 70, was: 'sixty' })).statusCode).toBe(400);
    // The value already there, sent again (a double click) from the same view: nothing to refuse.
    expect((await outcome(g.host, { outcome: 80, was: 60 })).statusCode).toBe(200);
    expect(await board()).toEqual([
      [149, 2, 50],
      [150, 1, 100],
      [116, 3, 0],
    ]);
  });

  it('scores a voided question 0 for everyone, and records every change in the audit log', async () => {
    expect((await outcome(g.host, { void: true })).statusCode).toBe(200);
    expect(await board()).toEqual([
      [100, 1, 50],
      [50, 3, 0],
      [100, 1, 50],
    ]);
    expect(await audit()).toEqual([
      ['question.voided', { outcome: 80, voided: false }, { outcome: 80, voided: true }],
      ['outcome.corrected', { outcome: 60, voided: false }, { outcome: 80, voided: false }],
      ['outcome.entered', { outcome: null, voided: false }, { outcome: 60, voided: false }],
    ]);
  });

  it('exports the void: importing it back changes nothing, a copy elsewhere keeps it, a file may not undo it', async () => {
    const endpoint = g.doc.community.endpoint;
    const exported = (await exportOf(g.host, endpoint)).json<SeasonInput>();
    const questions = exported.series![0]!.games![0]!.questions;
    expect(questions.map((q) => q.voided)).toEqual([undefined, undefined, true]);
    const again = await postSeason(g.host, exported, { format: 'json' });
    expect(again.json<SeasonImportResult>().unchanged.questions).toBe(3);

    // A file saved before the void (without it) leaves it as it is; voiding another question, or
    // restoring this one, in a file goes by the console.
    const before = structuredClone(exported);
    delete before.series![0]!.games![0]!.questions[2]!.voided;
    const unchanged = await postSeason(g.host, before, { format: 'json' });
    expect(unchanged.json<SeasonImportResult>().unchanged.questions).toBe(3);
    before.series![0]!.games![0]!.questions[0]!.voided = true;
    before.series![0]!.games![0]!.questions[2]!.voided = false;
    const refused = await postSeason(g.host, before, { format: 'json' });
    expect(refused.statusCode).toBe(400);
    const inConsole = expect.stringMatching(
      /^This game opened at .+: void or restore its questions in the console/,
    );
    expect(refused.json()).toMatchObject({
      errors: [
        { path: 'series.0.games.0.questions.0.voided', message: inConsole },
        { path: 'series.0.games.0.questions.2.voided', message: inConsole },
      ],
    });
    expect(
      (await exportOf(g.host, endpoint)).json<SeasonInput>().series![0]!.games![0]!.questions[0]!.voided,
    ).toBeUndefined();

    // Another instance, past the game's close: the copy is voided too.
    const { t: elsewhere, admin } = await startAdminApp(kind);
    try {
      elsewhere.clock.now = g.t.clock.now;
      const copied = await postSeason(admin, exported, { format: 'json' });
      expect(copied.statusCode, copied.body).toBe(200);
      const copy = (await exportOf(admin, endpoint)).json<SeasonInput>();
      expect(copy.series![0]!.games![0]!.questions.map((q) => q.voided)).toEqual([
        undefined,
        undefined,
        true,
      ]);
      // Before its answers close a question cannot be voided, by a file no more than in the console.
      const early = structuredClone(exported);
      const game = early.series![0]!.games![0]!;
      game.key = 'w2';
      const week = 7 * 24 * HOUR;
      const later = (at: string) => new Date(Date.parse(at) + week).toISOString();
      game.schedule = {
        open: later(game.schedule.open),
        standby: later(game.schedule.standby),
        complete: later(game.schedule.complete),
      };
      const refusedEarly = await postSeason(admin, early, { format: 'json' });
      expect(refusedEarly.statusCode).toBe(400);
      expect(refusedEarly.json()).toMatchObject({
        errors: [
          {
            path: 'series.0.games.0.questions.2.voided',
            message: `A question is voided once answers have closed, at ${new Date(game.schedule.standby).toISOString().replace('.000Z', 'Z')}`,
          },
        ],
      });
    } finally {
      await elsewhere.close();
    }
  });
});

/**
 * Restoring a voided pending question of a scored game that never got its outcome: re-scoring
 * could only guess its truth, so the host is told to enter it first (hosting spec §3).
 */
describe.each(dbKinds)('an outcome entered while an import is in flight (%s)', (kind) => {
  const { g, outcome, audit } = playedGame(kind);

  // On PGlite every transaction waits for the one before (one connection); PostgreSQL shows the lock.
  it('waits for the import to commit, then is entered', async () => {
    g.t.clock.now = new Date(g.start + 90 * 60_000);
    const importing = await holdImportLock(g.t.ctx.db, g.doc.community.endpoint);
    const entering = outcome(g.host, { outcome: 60 });
    expect(await stillPendingAfter(entering, 300)).toBe(true);
    await importing.release();
    expect((await entering).statusCode).toBe(200);
    expect(await audit()).toEqual([
      ['outcome.entered', { outcome: null, voided: false }, { outcome: 60, voided: false }],
    ]);
  });
});

describe.each(dbKinds)('restoring a voided pending question (%s)', (kind) => {
  const { g, outcome, board, tick, game, audit } = playedGame(kind);
  const VOIDED = [
    [100, 1, 50],
    [50, 3, 0],
    [100, 1, 50],
  ];

  it('restores it freely while the game is not scored: the game waits for the outcome again', async () => {
    g.t.clock.now = new Date(g.start + 90 * 60_000);
    expect((await outcome(g.host, { void: true })).statusCode).toBe(200);
    const restored = await outcome(g.host, { void: false });
    expect(restored.statusCode, restored.body).toBe(200);
    g.t.clock.now = new Date(g.start + 3 * HOUR);
    await tick();
    expect(await game()).toMatchObject({ state: 'results', waiting_for: ['How many?'] });
    // Voided again, the game waits for nothing and is scored with the question at 0.
    const voided = await outcome(g.host, { void: true });
    expect(voided.json()).toMatchObject({ state: 'results', waiting_for: [] });
    await tick();
    expect(await game()).toMatchObject({ state: 'complete', waiting_for: [] });
    expect(await board()).toEqual(VOIDED);
  });

  it('refuses to restore it once the game is scored while its outcome is missing, changing nothing', async () => {
    const logged = await audit();
    const res = await outcome(g.host, { void: false });
    expect([res.statusCode, res.body]).toEqual([
      400,
      'Question 3 has no outcome yet: enter it first, then restore the question',
    ]);
    expect(await game()).toMatchObject({ state: 'complete', waiting_for: [] });
    expect(await board()).toEqual(VOIDED);
    expect(await audit()).toEqual(logged);
    const listed = (await g.host.get(`/api/host/games/${g.doc.community.endpoint}`)).json();
    expect(listed.games[0].questions[2]).toMatchObject({ outcome: 'pending', voided: true });
    // Players are told no answer for it: not the crowd's median, which the host never gave.
    const stats = (await g.players[0]!.client.get(`/api/question_stats/${g.uuid}`)).json();
    expect(stats.stats[2]).toMatchObject({ correct_numbers: [], correct_choices: [] });
    expect(stats.stats[2].n).toBeGreaterThan(0);
  });

  it('takes the outcome of the voided question, then restores it and re-scores with it', async () => {
    const entered = await outcome(g.host, { outcome: 60 });
    expect(entered.statusCode, entered.body).toBe(200);
    expect(entered.json().state).toBe('complete');
    expect(await board()).toEqual(VOIDED);
    const restored = await outcome(g.host, { void: false });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ state: 'complete', waiting_for: [] });
    expect(await board()).toEqual([
      [181, 1, 100],
      [114, 3, 0],
      [136, 2, 50],
    ]);
    expect((await audit()).slice(0, 2)).toEqual([
      ['question.restored', { outcome: 60, voided: true }, { outcome: 60, voided: false }],
      ['outcome.entered', { outcome: null, voided: true }, { outcome: 60, voided: true }],
    ]);
  });
});

describe.each(dbKinds)('a file saved before a void, moving the results later (%s)', (kind) => {
  const { g, outcome } = playedGame(kind);

  it('keeps the void, and the audit log says so', async () => {
    g.t.clock.now = new Date(g.start + 90 * 60_000);
    expect((await outcome(g.host, { void: true }, 0)).statusCode).toBe(200);
    const file = structuredClone(g.doc);
    const game = file.series![0]!.games![0]!;
    game.schedule.complete = new Date(g.start + 3 * HOUR).toISOString();
    const res = await postSeason(g.host, file);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<SeasonImportResult>().updated.games).toBe(1);
    const exported = (await exportOf(g.host, g.doc.community.endpoint)).json<SeasonInput>();
    expect(exported.series![0]!.games![0]!.questions.map((q) => q.voided)).toEqual([
      true,
      undefined,
      undefined,
    ]);
    const entries = (await g.host.get(`/api/host/audit/${g.doc.community.endpoint}`)).json().entries;
    const updated = entries.find((e: { action: string }) => e.action === 'game.updated');
    expect(updated.new.questions[0].voided).toBe(true);
    expect(updated.new.schedule.complete).toBe(
      new Date(g.start + 3 * HOUR).toISOString().replace('.000Z', 'Z'),
    );
  });
});
