import {
  GAME_NAMESPACE_PATTERN,
  type GameClientToServer,
  type GameServerToClient,
  type LiveAnswerAck,
  liveAnswerSchema,
} from '@hunch/contract';
import { answerInTime, livePhaseAt } from '@hunch/rules';
import type { Namespace, Server, Socket } from 'socket.io';
import type { AppContext } from '../app-context';
import { loadGame } from '../games/game-queries';
import { validateAnswer } from '../games/participation';
import { HttpError } from '../http/http-error';
import { AnswerBatcher } from './answer-batcher';
import { questionEvent } from './live-events';
import { type LiveGameInfo, LiveScheduleCache } from './live-schedule';

export interface LiveSocketData {
  userId: number;
  gameId: string;
  subcommunity: string | null;
  participationId: number | null;
  /** Rolling round-trip estimate (ms), from latency probes. */
  rttMs: number;
}

export type LiveNamespace = Namespace<
  GameClientToServer,
  GameServerToClient,
  Record<string, never>,
  LiveSocketData
>;
type LiveSocket = Socket<GameClientToServer, GameServerToClient, Record<string, never>, LiveSocketData>;

const LATENCY_PROBE_MS = 5_000;
const LOBBY_COUNT_THROTTLE_MS = 500;

/** Resolves the logged-in user of a socket handshake from its session cookie. */
export type HandshakeUser = (cookieHeader: string | undefined) => Promise<number | null>;

/**
 * /game/{uuid}: the live game. Only logged-in members of the game's community connect; every event
 * payload is validated with the contract; answers are checked against the server's timeline and
 * stored (group commit) before they are acknowledged.
 */
export function registerLiveNamespace(io: Server, ctx: AppContext, handshakeUser: HandshakeUser) {
  const schedules = new LiveScheduleCache(ctx.db);
  const batcher = new AnswerBatcher(ctx.db);
  const parent = io.of(GAME_NAMESPACE_PATTERN) as unknown as LiveNamespace;
  const countTimers = new Map<string, NodeJS.Timeout>();

  const gameIdOf = (nsp: { name: string }) => nsp.name.slice('/game/'.length);

  async function playerCount(gameId: string): Promise<number> {
    const { rows } = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM participations WHERE game_id = $1',
      [gameId],
    );
    return rows[0]?.n ?? 0;
  }

  /** Tells everyone in the game how many players are in, at most twice a second. */
  function announceCount(nsp: LiveNamespace, gameId: string) {
    if (countTimers.has(gameId)) return;
    countTimers.set(
      gameId,
      setTimeout(async () => {
        countTimers.delete(gameId);
        nsp.emit('lobby_count', { count: await playerCount(gameId) });
      }, LOBBY_COUNT_THROTTLE_MS),
    );
  }

  parent.use(async (socket, next) => {
    try {
      const userId = await handshakeUser(socket.request.headers.cookie);
      if (userId === null) return next(new Error('Log in to play'));
      const gameId = gameIdOf(socket.nsp);
      const game = await loadGame(ctx.db, gameId, ctx.now());
      if (!game || !game.synchronous) return next(new Error('No such live game'));
      const member = await ctx.db.query(
        `SELECT 1 FROM memberships m JOIN communities c ON c.id = m.community_id WHERE m.user_id = $1 AND c.endpoint = $2`,
        [userId, game.community.endpoint],
      );
      if (member.rows.length === 0) return next(new Error(`Join ${game.community.name} to play`));
      const sub = socket.handshake.query.subcommunity;
      const entry = await ctx.db.query<{ id: number }>(
        'SELECT id FROM participations WHERE game_id = $1 AND user_id = $2',
        [gameId, userId],
      );
      socket.data = {
        userId,
        gameId,
        subcommunity: typeof sub === 'string' && sub !== '' && sub !== 'null' ? sub.slice(0, 64) : null,
        participationId: entry.rows[0]?.id ?? null,
        rttMs: 100,
      };
      next();
    } catch {
      next(new Error('The game is not available right now'));
    }
  });

  parent.on('connection', (socket: LiveSocket) => {
    const { gameId } = socket.data;
    const nsp = socket.nsp as LiveNamespace;

    const probe = () => {
      const sent = Date.now();
      socket.timeout(LATENCY_PROBE_MS).emit('latency', (err: Error | null) => {
        if (err) return;
        // An exponential moving average smooths out one slow round trip.
        socket.data.rttMs = Math.round(socket.data.rttMs * 0.7 + (Date.now() - sent) * 0.3);
      });
    };
    probe();
    const probes = setInterval(probe, LATENCY_PROBE_MS);
    socket.on('disconnect', () => clearInterval(probes));

    void resume(socket, gameId);

    socket.on('lobby', async (ack) => {
      if (typeof ack !== 'function') return;
      try {
        ack(await joinLobby(socket));
        announceCount(nsp, gameId);
      } catch {
        ack(false);
      }
    });

    socket.on('answer', async (payload, ack) => {
      if (typeof ack !== 'function') return;
      const receivedAt = ctx.now().getTime();
      const parsed = liveAnswerSchema.safeParse(payload);
      if (!parsed.success) return ack({ ok: false, error: 'Malformed answer' });
      try {
        ack(await acceptAnswer(socket, parsed.data, receivedAt));
      } catch (err) {
        ack({ ok: false, error: err instanceof HttpError ? err.message : 'The answer could not be stored' });
      }
    });
  });

  async function joinLobby(socket: LiveSocket): Promise<boolean> {
    const { userId, gameId, subcommunity } = socket.data;
    const info = await schedules.get(gameId);
    const game = await loadGame(ctx.db, gameId, ctx.now());
    if (!info || !game) return false;
    // Open: the lobby; standby: late joiners join the question in progress.
    if (game.state !== 'open' && game.state !== 'standby') return false;
    if (livePhaseAt(info.schedule, ctx.now().getTime()).kind === 'complete') return false;
    const hasSubs = Object.keys(game.subcommunities).length > 0;
    let subId: number | null = null;
    if (hasSubs) {
      if (!subcommunity || !game.subcommunities[subcommunity]) return false;
      const joined = await ctx.db.query<{ id: number }>(
        `SELECT c.id FROM communities c JOIN memberships m ON m.community_id = c.id AND m.user_id = $1 WHERE c.endpoint = $2`,
        [userId, subcommunity],
      );
      if (!joined.rows[0]) return false;
      subId = joined.rows[0].id;
    }
    const { rows } = await ctx.db.query<{ id: number }>(
      `INSERT INTO participations (game_id, user_id, subcommunity_id) VALUES ($1, $2, $3)
       ON CONFLICT (game_id, user_id) DO UPDATE SET game_id = EXCLUDED.game_id RETURNING id`,
      [gameId, userId, subId],
    );
    socket.data.participationId = rows[0]!.id;
    return true;
  }

  async function acceptAnswer(
    socket: LiveSocket,
    answer: { question_i: number; choice_i: number | null; number_answer: number | null },
    receivedAt: number,
  ): Promise<LiveAnswerAck> {
    const { gameId, participationId } = socket.data;
    if (participationId === null) return { ok: false, error: 'Join the lobby first' };
    const info = await schedules.get(gameId);
    if (!info) return { ok: false, error: 'No such live game' };
    if (!answerInTime(info.schedule, answer.question_i, receivedAt, socket.data.rttMs / 2)) {
      return {
        ok: false,
        error:
          receivedAt < info.schedule.startAt
            ? 'The game has not started'
            : 'Too late: this question is closed',
      };
    }
    validateAnswer(
      info.questions.find((q) => q.i === answer.question_i),
      answer,
    );
    const stored = await batcher.add(participationId, answer);
    return { ok: true, answer: stored };
  }

  /** Brings a (re)connecting player up to date: phase, their answers, the question in progress. */
  async function resume(socket: LiveSocket, gameId: string) {
    const info = await schedules.get(gameId);
    if (!info || !socket.connected) return;
    const now = ctx.now().getTime();
    const phase = livePhaseAt(info.schedule, now);
    const answers = socket.data.participationId
      ? (
          await ctx.db.query<{ question_i: number; choice_i: number | null; number_answer: number | null }>(
            'SELECT question_i, choice_i, number_answer FROM answers WHERE participation_id = $1 ORDER BY question_i',
            [socket.data.participationId],
          )
        ).rows
      : [];
    socket.emit('resume', {
      phase: phase.kind,
      in_lobby: socket.data.participationId !== null,
      answers,
      players: await playerCount(gameId),
    });
    if (phase.kind === 'question') socket.emit('question', questionEvent(info, phase.i, now));
  }

  return {
    schedules,
    batcher,
    /** The namespace of one game, for the driver's broadcasts (a child of the pattern namespace). */
    of(gameId: string): LiveNamespace {
      return io.of(`/game/${gameId}`) as unknown as LiveNamespace;
    },
  };
}

export type LiveHub = ReturnType<typeof registerLiveNamespace>;
export type { LiveGameInfo };
