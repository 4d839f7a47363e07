import type { LiveAnswerAck, LiveQuestionEvent } from '@hunch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCommunity, makeGame } from '../test/factories';
import { type GameSocket, openGameSocket } from '../test/game-socket';
import { httpSession, registerOverHttp } from '../test/http-session';
import { startLiveTestServer } from '../test/live-test-server';
import { dbKinds } from '../test/test-db';
import { until } from '../test/until';
import { LIVE_ANSWERS_WAITING_MAX } from './live-namespace';

// Leaving a community while playing its live game: the player's sockets end, their answers still
// in flight fail alone, and nobody else's answers suffer (issue 24, findings 1 and 7). And a player
// who floods answers without waiting for them is closed, with nobody else's answers suffering.

function connect(url: string, gameId: string, cookie: string, subcommunity = '') {
  const socket = openGameSocket(url, gameId, { cookie, subcommunity });
  const questions: LiveQuestionEvent[] = [];
  let disconnected: string | null = null;
  socket.on('question', (q) => questions.push(q));
  socket.on('latency', (ack) => ack());
  socket.on('disconnect', (reason) => {
    disconnected = reason;
  });
  return { socket, questions, disconnectedBy: () => disconnected };
}

const connected = (s: GameSocket) =>
  new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });

const answer = (s: GameSocket, question_i: number, choice_i: number) =>
  new Promise<LiveAnswerAck>((resolve) =>
    s.emit('answer', { question_i, choice_i, number_answer: null }, (ack) => resolve(ack)),
  );

describe.each(dbKinds)('leaving a community during its live game, on %s', (kind) => {
  let server: Awaited<ReturnType<typeof startLiveTestServer>>;
  beforeAll(async () => {
    server = await startLiveTestServer(kind);
  });
  afterAll(() => server.close());

  it('a player who leaves and floods answers fails only their own; their sockets in its games end', async () => {
    const db = server.ctx.db;
    // Lobby open now, the first question about 8 s from now (3 s to the start, 5 s of countdown).
    const g = await makeGame(db, new Date(), { synchronous: true, openFor: 0.05 });
    await db.query('UPDATE questions SET secs_to_answer = 8 WHERE game_id = $1', [g.uuid]);
    await db.query('DELETE FROM questions WHERE game_id = $1 AND i >= 2', [g.uuid]);
    await db.query("UPDATE games SET complete_at = standby_at + interval '10 minutes' WHERE id = $1", [
      g.uuid,
    ]);
    // Another community's live game the flooder also has open: leaving this one does not end it.
    const other = await makeGame(db, new Date(), { synchronous: true });

    const accounts = await Promise.all([0, 1, 2, 3, 4].map(() => registerOverHttp(server.url)));
    for (const a of accounts) {
      expect((await a.call('PUT', `/api/community_membership/${g.community.endpoint}`)).status).toBe(200);
    }
    const flooderAccount = accounts[0]!;
    expect(
      (await flooderAccount.call('PUT', `/api/community_membership/${other.community.endpoint}`)).status,
    ).toBe(200);
    const [flooder, ...honest] = accounts.map((a) => connect(server.url, g.uuid, a.cookie()));
    const elsewhere = connect(server.url, other.uuid, flooderAccount.cookie());
    await Promise.all([flooder!, ...honest, elsewhere].map((p) => connected(p.socket)));
    for (const p of [flooder!, ...honest]) expect(await p.socket.emitWithAck('lobby')).toBe(true);
    await until(() => flooder!.questions.length > 0 && honest.every((p) => p.questions.length > 0), 20_000);

    // A question not asked yet is not closed: it is not open yet (finding 12).
    expect(await answer(honest[0]!.socket, 1, 0)).toEqual({
      ok: false,
      error: 'This question is not open yet',
    });

    // The flooder answers every 2 ms, and keeps on after leaving the community over HTTP.
    const flooderAcks: LiveAnswerAck[] = [];
    let k = 0;
    const flood = setInterval(() => {
      if (flooder!.socket.connected)
        void answer(flooder!.socket, 0, k++ % 3).then((a) => flooderAcks.push(a));
    }, 2);
    try {
      await until(() => flooderAcks.length >= 20, 5_000);
      expect(
        (await flooderAccount.call('DELETE', `/api/community_membership/${g.community.endpoint}`)).status,
      ).toBe(200);
      // Meanwhile and after, the honest players answer (again and again: repeats are acknowledged too).
      const honestAcks: LiveAnswerAck[][] = honest.map(() => []);
      for (let round = 0; round < 10; round++) {
        await Promise.all(honest.map(async (p, h) => honestAcks[h]!.push(await answer(p.socket, 0, h % 3))));
        await new Promise((r) => setTimeout(r, 30));
      }
      for (const [h, acks] of honestAcks.entries()) {
        expect(acks).toEqual(
          acks.map(() => ({ ok: true, answer: { question_i: 0, choice_i: h % 3, number_answer: null } })),
        );
      }
      await until(() => flooder!.disconnectedBy() !== null, 5_000);
      expect(flooder!.disconnectedBy()).toBe('io server disconnect');
    } finally {
      clearInterval(flood);
    }
    // Its other community's game stays open.
    await new Promise((r) => setTimeout(r, 200));
    expect(elsewhere.socket.connected).toBe(true);
    // Whatever the flooder sent after leaving was refused, one answer at a time: the first refusal
    // names the community; any that still came before the socket ended, the lobby it is out of
    // (on a busy machine some do).
    const refusals = new Set(flooderAcks.flatMap((a) => (a.ok ? [] : [a.error])));
    for (const error of refusals)
      expect([`Join Club ${g.community.endpoint} to play`, 'Join the lobby first']).toContain(error);

    // Every honest answer is stored, once; nothing of the flooder's is.
    const { rows } = await db.query<{ username: string; choice_i: number }>(
      `SELECT u.username, a.choice_i FROM answers a JOIN participations p ON p.id = a.participation_id
         JOIN users u ON u.id = p.user_id WHERE p.game_id = $1 AND a.question_i = 0`,
      [g.uuid],
    );
    expect(Object.fromEntries(rows.map((r) => [r.username, r.choice_i]))).toEqual(
      Object.fromEntries(accounts.slice(1).map((a, h) => [a.username, h % 3])),
    );

    // Back with a new connection, the flooder is told to join first.
    const again = connect(server.url, g.uuid, flooderAccount.cookie());
    await expect(connected(again.socket)).rejects.toThrow(`Join Club ${g.community.endpoint} to play`);
    for (const p of [...honest, elsewhere, again]) p.socket.close();
  }, 60_000);

  it('a player who leaves the community they represent is ended there, and may not play for it again', async () => {
    const db = server.ctx.db;
    const team = await makeCommunity(db, { name: 'Team Rocket' });
    const g = await makeGame(db, new Date(), { synchronous: true, subcommunities: [team.endpoint] });
    const [player, newcomer] = await Promise.all([1, 2].map(() => registerOverHttp(server.url)));
    for (const p of [player!, newcomer!])
      for (const id of [g.community.endpoint, team.endpoint])
        expect((await p.call('PUT', `/api/community_membership/${id}`)).status).toBe(200);

    const playing = connect(server.url, g.uuid, player!.cookie(), team.endpoint);
    await connected(playing.socket);
    expect(await playing.socket.emitWithAck('lobby')).toBe(true);
    expect((await player!.call('DELETE', `/api/community_membership/${team.endpoint}`)).status).toBe(200);
    await until(() => playing.disconnectedBy() !== null, 5_000);

    // As the team: refused. For nobody: in, with the entry made before.
    const asTeam = connect(server.url, g.uuid, player!.cookie(), team.endpoint);
    await expect(connected(asTeam.socket)).rejects.toThrow('You do not represent Team Rocket in this game');
    const asNobody = connect(server.url, g.uuid, player!.cookie());
    await connected(asNobody.socket);
    expect(await asNobody.socket.emitWithAck('lobby')).toBe(true);
    const { rows } = await db.query<{ n: number; sub: number | null }>(
      `SELECT count(*)::int AS n, max(subcommunity_id) AS sub FROM participations WHERE game_id = $1`,
      [g.uuid],
    );
    expect(rows[0]).toEqual({ n: 1, sub: null });

    // Someone with no entry yet who left the team cannot enter as it.
    expect((await newcomer!.call('DELETE', `/api/community_membership/${team.endpoint}`)).status).toBe(200);
    const late = connect(server.url, g.uuid, newcomer!.cookie(), team.endpoint);
    await expect(connected(late.socket)).rejects.toThrow('Join Team Rocket to represent it');
    for (const p of [asTeam, asNobody, late]) p.socket.close();
  }, 30_000);

  it('a socket that sends thousands of answers at once is closed; the others play on', async () => {
    const db = server.ctx.db;
    const g = await makeGame(db, new Date(), { synchronous: true, openFor: 0.05 });
    await db.query('UPDATE questions SET secs_to_answer = 20 WHERE game_id = $1', [g.uuid]);
    const [flooderAccount, honestAccount] = await Promise.all([1, 2].map(() => registerOverHttp(server.url)));
    for (const a of [flooderAccount!, honestAccount!]) {
      expect((await a.call('PUT', `/api/community_membership/${g.community.endpoint}`)).status).toBe(200);
    }
    const [flooder, honest] = [flooderAccount!, honestAccount!].map((a) =>
      connect(server.url, g.uuid, a.cookie()),
    );
    await Promise.all([flooder!, honest!].map((p) => connected(p.socket)));
    for (const p of [flooder!, honest!]) expect(await p.socket.emitWithAck('lobby')).toBe(true);
    await until(() => flooder!.questions.length > 0 && honest!.questions.length > 0, 20_000);

    const acks: LiveAnswerAck[] = [];
    for (let k = 0; k < 5_000; k++) {
      flooder!.socket.emit('answer', { question_i: 0, choice_i: k % 3, number_answer: null }, (a) =>
        acks.push(a),
      );
    }
    await until(() => flooder!.disconnectedBy() !== null, 10_000);
    expect(flooder!.disconnectedBy()).toBe('io server disconnect');
    // Answered at most what it had waiting when it was closed.
    expect(acks.length).toBeLessThanOrEqual(LIVE_ANSWERS_WAITING_MAX);
    expect(await answer(honest!.socket, 0, 1)).toEqual({
      ok: true,
      answer: { question_i: 0, choice_i: 1, number_answer: null },
    });
    // One row per player and question, whatever the flood.
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM answers a JOIN participations p ON p.id = a.participation_id
        WHERE p.game_id = $1 GROUP BY p.id`,
      [g.uuid],
    );
    expect(rows.map((r) => r.n)).toEqual([1, 1]);
    honest!.socket.close();
  }, 60_000);

  it("a logout, or a login over it, ends the live sockets opened with that session, not the player's others", async () => {
    const db = server.ctx.db;
    const g = await makeGame(db, new Date(), { synchronous: true });
    const account = await registerOverHttp(server.url);
    expect((await account.call('PUT', `/api/community_membership/${g.community.endpoint}`)).status).toBe(200);
    // The same player in a second browser.
    const phone = httpSession(server.url);
    const login = await phone.call(
      'PUT',
      '/api/login',
      new URLSearchParams({ username: account.username, password: 'secret!42' }),
    );
    expect(login.status).toBe(200);
    const [desk, mobile] = [account, phone].map((s) => connect(server.url, g.uuid, s.cookie()));
    await Promise.all([desk!, mobile!].map((p) => connected(p.socket)));
    for (const p of [desk!, mobile!]) expect(await p.socket.emitWithAck('lobby')).toBe(true);
    expect((await account.call('PUT', '/api/logout')).status).toBe(200);
    await until(() => desk!.disconnectedBy() !== null, 5_000);
    expect(desk!.disconnectedBy()).toBe('io server disconnect');
    await new Promise((r) => setTimeout(r, 200));
    expect(mobile!.socket.connected).toBe(true);
    // A login over the second browser's session (someone else there) ends that one's socket too.
    const other = await registerOverHttp(server.url);
    const over = await phone.call(
      'PUT',
      '/api/login',
      new URLSearchParams({ username: other.username, password: 'secret!42' }),
    );
    expect(over.status).toBe(200);
    await until(() => mobile!.disconnectedBy() !== null, 5_000);
    expect(mobile!.disconnectedBy()).toBe('io server disconnect');
  }, 30_000);
});
