import type { GameState, SeasonImportResult, SeasonInput } from '@hunch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameClock } from '../games/game-clock';
import { adminName, postSeason, signUp } from '../test/hosting-factories';
import { startTestApp, type TestApp, type TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';

const HOUR = 3_600_000;

/**
 * Outcomes and re-scoring (hosting spec §3), with the points worked out by hand from DESIGN §2:
 * a vote (A, B, C), a guess linked to it, and a predict on 0..100 whose outcome is pending.
 *   votes: p1 A, p2 A, p3 B -> A has 2, B 1; guess points round(100 × count / top):
 *   guesses: p1 A 100, p2 B 50, p3 A 100.
 *   predicts p1 50, p2 80, p3 20; points round(100 × (1 − |x − truth| / 100)²):
 *   truth 60: 81, 64, 36 -> totals 181, 114, 136; ranks 1, 3, 2; percentiles 100, 0, 50.
 *   truth 80: 49, 100, 16 -> totals 149, 150, 116; ranks 2, 1, 3.
 *   predict voided: totals 100, 50, 100; ranks 1, 3, 1 (standard competition ranking).
 */
describe.each(dbKinds)('entering, correcting and voiding outcomes (%s)', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let host: TestClient;
  const players: { client: TestClient; name: string }[] = [];
  let uuid: string;
  const announced: [string, GameState][] = [];
  let clocks: GameClock[];
  const name = adminName();
  const start = Date.now();
  const doc: SeasonInput = {
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
              standby: new Date(start + HOUR).toISOString(),
              complete: new Date(start + 2 * HOUR).toISOString(),
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
    t = await startTestApp(kind, { config: { adminUsers: [name] } });
    t.clock.now = new Date(start);
    admin = t.client();
    await signUp(admin, name);
    const res = await postSeason(admin, doc);
    expect(res.statusCode, res.body).toBe(200);
    uuid = res.json<SeasonImportResult>().games[0]!.uuid!;
    host = t.client();
    const hostName = await signUp(host);
    expect((await admin.put(`/api/host/hosts/${doc.community.endpoint}/${hostName}`)).statusCode).toBe(200);
    const answers = [
      [0, 0, 50],
      [0, 1, 80],
      [1, 0, 20],
    ] as const;
    for (const [vote, guess, number] of answers) {
      const client = t.client();
      const player = { client, name: await signUp(client) };
      players.push(player);
      expect((await client.put(`/api/community_membership/${doc.community.endpoint}`)).statusCode).toBe(200);
      expect(
        (await client.post(`/api/participation/${uuid}`, { json: { subcommunity: null } })).statusCode,
      ).toBe(200);
      for (const body of [
        { question_i: 0, choice_i: vote, number_answer: null },
        { question_i: 1, choice_i: guess, number_answer: null },
        { question_i: 2, choice_i: null, number_answer: number },
      ]) {
        const put = await client.put(`/api/answer/weekly/${uuid}`, { json: body });
        expect(put.statusCode, put.body).toBe(200);
      }
    }
    // Two processes' clocks: scoring is claimed in the database, so only one of them scores.
    clocks = [0, 1].map(() => new GameClock(t.ctx, (id, state) => announced.push([id, state])));
  });
  afterAll(() => t.close());

  const outcome = (client: TestClient, body: object, i = 2) =>
    client.request('PUT', `/api/host/outcome/${uuid}/${i}`, { json: body });
  const board = async () => {
    const rows = (await players[0]!.client.get(`/api/leaderboard/${uuid}?p=1`)).json();
    return players.map((p) => [rows[p.name].s, rows[p.name].r, rows[p.name].p]);
  };
  const tick = () => Promise.all(clocks.map((c) => c.tick()));
  const state = async () => (await t.client().get(`/api/game/${uuid}`)).json().state;

  it('refuses an outcome before standby (409), off the slider or for a vote (400), and to others', async () => {
    expect((await outcome(host, { outcome: 60 })).statusCode).toBe(409);
    t.clock.now = new Date(start + 90 * 60_000);
    const off = await outcome(host, { outcome: 101 });
    expect([off.statusCode, off.body]).toEqual([400, 'The outcome must lie on the slider, from 0 to 100']);
    expect((await outcome(host, { outcome: 1 }, 0)).statusCode).toBe(400);
    expect((await outcome(host, { outcome: 'sixty' })).statusCode).toBe(400);
    expect((await outcome(host, { outcome: 60 }, 7)).statusCode).toBe(404);
    expect((await outcome(players[0]!.client, { outcome: 60 })).statusCode).toBe(403);
    expect((await outcome(t.client(), { outcome: 60 })).statusCode).toBe(401);
  });

  it('keeps the game in results past complete until the outcome, then scores it exactly once', async () => {
    t.clock.now = new Date(start + 3 * HOUR);
    await tick();
    expect(await state()).toBe('results');
    // Two hosts press at once while both clocks tick: one scoring, one 'complete' announced.
    const [a, b] = await Promise.all([
      outcome(host, { outcome: 60 }),
      outcome(admin, { outcome: 60 }),
      tick(),
    ]);
    expect([a!.statusCode, b!.statusCode]).toEqual([200, 200]);
    await Promise.all([tick(), tick()]);
    expect(await state()).toBe('complete');
    expect(announced.filter(([id, s]) => id === uuid && s === 'complete')).toHaveLength(1);
    expect(await board()).toEqual([
      [181, 1, 100],
      [114, 3, 0],
      [136, 2, 50],
    ]);
  });

  it('re-scores a correction at once: scores, ranks, percentiles, community ranks and statistics', async () => {
    const res = await outcome(host, { outcome: 80 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().state).toBe('complete');
    expect(await board()).toEqual([
      [149, 2, 50],
      [150, 1, 100],
      [116, 3, 0],
    ]);
    const stats = (await players[0]!.client.get(`/api/question_stats/${uuid}`)).json();
    expect(JSON.stringify(stats)).toContain('"correct_numbers":[80]');
    const rank = await players[1]!.client.get(`/api/community_rank/${doc.community.endpoint}`);
    expect(rank.json()).toMatchObject({ s: 150, r: 1 });
  });

  it('scores a voided question 0 for everyone, and records every change in the audit log', async () => {
    expect((await outcome(host, { void: true })).statusCode).toBe(200);
    expect(await board()).toEqual([
      [100, 1, 50],
      [50, 3, 0],
      [100, 1, 50],
    ]);
    const audit = (await host.get(`/api/host/audit/${doc.community.endpoint}`)).json();
    const changes = audit.entries
      .filter((e: { action: string }) => /^(outcome|question)\./.test(e.action))
      .map((e: { action: string; old: unknown; new: unknown }) => [e.action, e.old, e.new]);
    expect(changes).toEqual([
      ['question.voided', { outcome: 80, voided: false }, { outcome: 80, voided: true }],
      ['outcome.corrected', { outcome: 60, voided: false }, { outcome: 80, voided: false }],
      ['outcome.entered', { outcome: null, voided: false }, { outcome: 60, voided: false }],
    ]);
  });
});
