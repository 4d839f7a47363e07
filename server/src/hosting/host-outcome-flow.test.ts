import type { SeasonImportResult } from '@hunch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameClock } from '../games/game-clock';
import { adminName, postSeason, seasonDoc, signUp } from '../test/hosting-factories';
import { startTestApp, type TestApp, type TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PENDING = 'Finishers on Saturday?';

/**
 * What players and the console see as a host works through a game's outcomes: what the game waits
 * for (gameSchema.waiting_for), voided questions (questionItemSchema.voided), and the console's
 * list with each question's outcome.
 */
describe.each(dbKinds)('outcomes as players and the console see them (%s)', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  const players: TestClient[] = [];
  let uuid: string;
  let clock: GameClock;
  const name = adminName();
  const start = Date.now();
  // week-1: open an hour ago, standby in an hour, complete in two; questions 0 vote, 1 guess,
  // 2 predict pending, 3 predict crowd, 4 predict 12.
  const doc = seasonDoc(new Date(start - DAY - HOUR));

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { adminUsers: [name] } });
    t.clock.now = new Date(start);
    admin = t.client();
    await signUp(admin, name);
    const res = await postSeason(admin, doc);
    expect(res.statusCode, res.body).toBe(200);
    uuid = res.json<SeasonImportResult>().games[0]!.uuid!;
    for (const [choice, pending, crowd, number] of [
      [0, 100, 20, 10],
      [1, 140, 21, 14],
    ] as const) {
      const client = t.client();
      await signUp(client);
      players.push(client);
      expect((await client.put(`/api/community_membership/${doc.community.endpoint}`)).statusCode).toBe(200);
      expect(
        (await client.post(`/api/participation/${uuid}`, { json: { subcommunity: null } })).statusCode,
      ).toBe(200);
      const answers = [
        [choice, null],
        [choice, null],
        [null, pending],
        [null, crowd],
        [null, number],
      ] as const;
      for (const [i, [choice_i, number_answer]] of answers.entries()) {
        const put = await client.put(`/api/answer/weekly-picks/${uuid}`, {
          json: { question_i: i, choice_i, number_answer },
        });
        expect(put.statusCode, put.body).toBe(200);
      }
    }
    clock = new GameClock(t.ctx, () => undefined);
  });
  afterAll(() => t.close());

  const game = async () => (await t.client().get(`/api/game/${uuid}`)).json();
  const consoleGame = async () =>
    (await admin.get(`/api/host/games/${doc.community.endpoint}`))
      .json()
      .games.find((g: { uuid: string }) => g.uuid === uuid);
  const outcomes = async () =>
    (await consoleGame()).questions.map((q: { outcome: unknown; voided: boolean }) => [q.outcome, q.voided]);

  it('waits for nothing before the complete time, pending outcome or not', async () => {
    expect(await game()).toMatchObject({ state: 'open', waiting_for: [] });
    t.clock.now = new Date(start + 90 * 60_000);
    expect(await game()).toMatchObject({ state: 'standby', waiting_for: [] });
  });

  it('shows a voided question as voided in the player’s entry and the console', async () => {
    const res = await admin.put(`/api/host/outcome/${uuid}/0`, { json: { void: true } });
    expect(res.statusCode, res.body).toBe(200);
    const entry = (await players[0]!.get(`/api/participation/${uuid}`)).json().entry;
    expect(entry.questions.map((q: { voided: boolean }) => q.voided)).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(await outcomes()).toEqual([
      [null, true],
      [null, false],
      ['pending', false],
      ['crowd', false],
      [12, false],
    ]);
  });

  it('lists the pending question past complete, and nothing once its outcome is entered', async () => {
    t.clock.now = new Date(start + 3 * HOUR);
    await clock.tick();
    expect(await game()).toMatchObject({ state: 'results', waiting_for: [PENDING] });
    const listed = (await players[0]!.get('/api/play_games')).json();
    expect(listed.find((g: { uuid: string }) => g.uuid === uuid).waiting_for).toEqual([PENDING]);
    expect(await consoleGame()).toMatchObject({ state: 'results', locked: true, participants: 2 });

    const res = await admin.put(`/api/host/outcome/${uuid}/2`, { json: { outcome: 150 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ state: 'results', waiting_for: [] });
    expect(await game()).toMatchObject({ state: 'results', waiting_for: [] });
    expect((await outcomes())[2]).toEqual([150, false]);
  });

  it('shows the crowd median once scored, and voided questions in the statistics', async () => {
    await clock.tick();
    expect(await game()).toMatchObject({ state: 'complete', waiting_for: [] });
    expect(await outcomes()).toEqual([
      [null, true],
      [null, false],
      [150, false],
      [20.5, false],
      [12, false],
    ]);
    const stats = await players[1]!.get(`/api/question_stats/${uuid}`);
    expect(stats.statusCode, stats.body).toBe(200);
    expect(stats.json().questions.map((q: { voided: boolean }) => q.voided)).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
    // Restoring the question shows it again, in the entry too.
    expect((await admin.put(`/api/host/outcome/${uuid}/0`, { json: { void: false } })).statusCode).toBe(200);
    const entry = (await players[1]!.get(`/api/participation/${uuid}`)).json().entry;
    expect(entry.questions[0].voided).toBe(false);
  });
});
