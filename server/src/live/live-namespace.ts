import { GAME_NAMESPACE_PATTERN, type LiveAnswerAck, liveAnswerSchema } from '@hunch/contract';
import { answeredAt, answerInTime, type LivePhase, livePhaseAt, phaseEndsAt } from '@hunch/rules';
import type { Server } from 'socket.io';
import { answersOf, validateAnswer } from '../core/participation';
import type { AppContext } from '../platform/app-context';
import { HttpError } from '../platform/http/http-error';
import { countedSockets, releaseSocket } from '../platform/socket-admission';
import { AnswerBatcher, BATCHER_DEFAULTS, type BatcherLog, EntryGoneError } from './answer-batcher';
import { socketEnding } from './ending-sockets';
import { type HandshakeSession, type LiveNamespace, type LiveSocket, liveAdmission } from './live-admission';
import { type OutgoingEvent, SlicedBroadcaster } from './live-broadcast';
import { questionEvent } from './live-events';
import { countPlayers, enterLiveGame, leaveLiveGame } from './live-queries';
import { notInTime } from './live-refusals';
import { type LiveGameInfo, LiveScheduleCache } from './live-schedule';
import { PlayerSockets } from './player-sockets';
import { QuestionResults } from './question-results';
import { resultAnnouncer } from './result-announcer';
import { childNamespaces } from './transport/child-namespaces';
import { type DirectEvent, LiveTransport, type TransportLog } from './transport/live-transport';
import { probeRoundTrip, roundTripMs } from './transport/round-trips';

/**
 * A player has an answer or two on its way at a time; a socket with more waiting floods (150,000
 * answers at once from one socket held other players' calls for seconds), and is closed.
 */
export const LIVE_ANSWERS_WAITING_MAX = 64;

// Lobby player counts go out at most every 2 s, and only when they changed.
const LOBBY_COUNT_EVERY_MS = 2_000;
const FORGET_COUNT_AFTER_MS = 3_600_000;

/** A game's player count in one process: the latest, the last broadcast, and who was told what since. */
interface PlayerCount {
  n: number;
  /** When the count's query started (epoch ms). */
  at: number;
  /** The count last broadcast to the game (-1: none yet). */
  sent: number;
  /** Sockets told a count by their resume since the last announcement, with the count they were told. */
  served: Map<LiveSocket, number>;
}

/** The lobby and the countdown: counts go to everyone, as no question is due yet. */
const beforeQuestions = (phase: LivePhase) => phase.kind === 'lobby' || phase.kind === 'countdown';

/**
 * /game/{uuid}: the live game. Only logged-in members of the game's community connect; every event
 * payload is validated with the contract; answers are checked against the server's timeline and
 * stored (group commit) before they are acknowledged.
 */
export function registerLiveNamespace(
  io: Server,
  ctx: AppContext,
  handshakeSession: HandshakeSession,
  log: TransportLog & BatcherLog,
) {
  const schedules = new LiveScheduleCache(ctx.db, () => ctx.now().getTime());
  const batcher = new AnswerBatcher(ctx.db, log, {
    ...BATCHER_DEFAULTS,
    keepRecords: ctx.config.benchMetrics ? 20_000 : 0,
  });
  const transport = new LiveTransport(log);
  const broadcaster = new SlicedBroadcaster(transport, { remote: Boolean(ctx.config.redisUrl) });
  const parent = io.of(GAME_NAMESPACE_PATTERN) as unknown as LiveNamespace;
  const children = childNamespaces(io, parent, log);
  const countTimers = new Map<string, NodeJS.Timeout>();
  const counts = new Map<string, PlayerCount>();
  /** Answers this process received, by the way they came in (tests, benchmark). */
  const answerPaths = { direct: 0, ordinary: 0 };
  const players = new PlayerSockets<LiveSocket>();
  const results = new QuestionResults(ctx.db, () => ctx.now().getTime());
  const announcer = resultAnnouncer(schedules, results, broadcaster, () => ctx.now().getTime(), log);

  /**
   * Players in a game, counted in the database at most every 2 s per process (`fresh` skips the
   * cache). Of two counts in flight, the one that started later wins.
   */
  async function playerCount(gameId: string, fresh = false): Promise<number> {
    const hit = counts.get(gameId);
    if (!fresh && hit && Date.now() - hit.at < LOBBY_COUNT_EVERY_MS) return hit.n;
    const started = Date.now();
    const n = await countPlayers(ctx.db, gameId);
    const entry = counts.get(gameId);
    if (!entry) {
      counts.set(gameId, { n, at: started, sent: -1, served: new Map() });
      // Games not counted for an hour are over: a long-running process forgets them.
      for (const [id, e] of counts) if (started - e.at > FORGET_COUNT_AFTER_MS) counts.delete(id);
    } else if (entry.at <= started) Object.assign(entry, { n, at: started });
    return n;
  }

  /**
   * Tells everyone in the lobby how many players are in: at most every 2 s, and only on a change.
   * A player who connected meanwhile was told a count that may have been cached (or changed by a
   * join on another process): if it differs from the fresh one, they get the fresh one alone. The
   * broadcast stops at the first question (a send to every player would queue ahead of the next
   * one); a late joiner's own correction does not.
   */
  function announceCount(nsp: LiveNamespace, gameId: string) {
    if (countTimers.has(gameId)) return;
    countTimers.set(
      gameId,
      setTimeout(() => {
        countTimers.delete(gameId);
        const entry = counts.get(gameId);
        const served = [...(entry?.served ?? [])];
        entry?.served.clear();
        // A failed count is skipped (the next join tries again); it must not reach the process.
        void (async () => {
          const info = await schedules.get(gameId);
          if (!info) return;
          const n = await playerCount(gameId, true);
          const latest = counts.get(gameId);
          if (!latest) return;
          if (beforeQuestions(livePhaseAt(info.schedule, ctx.now().getTime())) && latest.sent !== n) {
            latest.sent = n;
            return broadcaster.send(gameId, nsp, 'lobby_count', () => [['lobby_count', { count: n }]]);
          }
          for (const [socket, told] of served)
            if (told !== n && socket.connected) socket.emit('lobby_count', { count: n });
        })().catch(() => undefined);
      }, LOBBY_COUNT_EVERY_MS),
    );
  }

  parent.use(countedSockets(liveAdmission(ctx, schedules, handshakeSession, players)));

  // The handlers below serve every socket (socket.io calls them with the socket as `this`): a
  // closure each per player, with their context and a probe timer, cost ~2 KB of heap a player
  // (decision 029).
  async function onLobby(this: LiveSocket, ack: unknown) {
    if (typeof ack !== 'function') return;
    try {
      const joining = joinLobby(this);
      const pending = joining.catch(() => false);
      this.data.joining = pending;
      const joined = await joining;
      // Settled: an answer no longer waits for it (a promise kept per player is heap, decision 029).
      if (this.data.joining === pending) this.data.joining = undefined;
      ack(joined);
      announceCount(this.nsp as LiveNamespace, this.data.gameId);
    } catch {
      ack(false);
    }
  }

  /**
   * A player in the lobby changes their mind before the game starts: their entry goes (no question
   * has been asked, so nothing of theirs is scored), for each of their sockets in this game here.
   * Once the game has started the entry stays, as it would for anyone who stops answering.
   */
  async function onLeaveLobby(this: LiveSocket, ack: unknown) {
    if (typeof ack !== 'function') return;
    try {
      if (this.data.joining) await this.data.joining;
      const { gameId, participationId, userId } = this.data;
      if (participationId === null) return ack(true);
      const info = await schedules.get(gameId);
      if (!info || livePhaseAt(info.schedule, ctx.now().getTime()).kind !== 'lobby') return ack(false);
      await leaveLiveGame(ctx.db, participationId);
      for (const socket of players.of(userId))
        if (socket.data.gameId === gameId) socket.data.participationId = null;
      ack(true);
      announceCount(this.nsp as LiveNamespace, gameId);
    } catch {
      ack(false);
    }
  }

  async function onAnswer(socket: LiveSocket, payload: unknown, ack: unknown) {
    if (typeof ack !== 'function') return;
    if (socket.data.answering >= LIVE_ANSWERS_WAITING_MAX) {
      socket.disconnect(true);
      return;
    }
    const receivedAt = ctx.now().getTime();
    const parsed = liveAnswerSchema.safeParse(payload);
    if (!parsed.success) return ack({ ok: false, error: 'Malformed answer' });
    socket.data.answering++;
    try {
      ack(await acceptAnswer(socket, parsed.data, receivedAt));
    } catch (err) {
      ack({ ok: false, error: err instanceof HttpError ? err.message : 'The answer could not be stored' });
    } finally {
      socket.data.answering--;
    }
  }
  function onOrdinaryAnswer(this: LiveSocket, payload: unknown, ack: unknown) {
    answerPaths.ordinary++;
    void onAnswer(this, payload, ack);
  }
  // On the direct path, most answers skip socket.io's incoming layers to the same handler, and
  // acknowledgements skip its outgoing ones (decision 011).
  const directAnswer: DirectEvent<LiveSocket> = {
    event: 'answer',
    listener(payload, ack) {
      answerPaths.direct++;
      void onAnswer(this, payload, ack);
    },
  };

  /** Every live socket's one disconnect listener (`this` is the socket; decision 029). */
  function onDisconnect(this: LiveSocket) {
    releaseSocket(this);
    broadcaster.leave(this);
    players.remove(this);
    transport.release(this);
  }

  parent.on('connection', (socket: LiveSocket) => {
    const { gameId } = socket.data;
    broadcaster.add(socket);
    players.add(socket);
    socket.on('disconnect', onDisconnect);
    announcer.watch(gameId);
    // socket.io puts each socket in a room of its own id (a set and an entry per player); nothing
    // sends to a live player by id, and broadcasts walk the sockets (decision 029).
    transport.leaveOwnRoom(socket);
    // The first round-trip estimate; engine.io's heartbeat keeps it fresh (transport/round-trips.ts).
    socket.emit('latency', probeRoundTrip(socket));
    // A failed resume leaves the player connected: the next event or reconnection brings them up to date.
    resume(socket, gameId).catch(() => undefined);
    socket.on('lobby', onLobby);
    socket.on('leave_lobby', onLeaveLobby);
    socket.on('answer', onOrdinaryAnswer);
    transport.adopt(socket, directAnswer);
  });

  async function joinLobby(socket: LiveSocket): Promise<boolean> {
    const { userId, gameId, subcommunity } = socket.data;
    // Already entered (a reconnect, another tab): in, with the subcommunity chosen back then.
    if (socket.data.participationId !== null) return true;
    const info = await schedules.get(gameId);
    if (!info) return false;
    // From the lobby's opening until the live part ends (late joiners join the question in progress).
    const now = ctx.now().getTime();
    if (now < info.openAt || livePhaseAt(info.schedule, now).kind === 'complete') return false;
    let subId: number | null = null;
    if (info.subcommunities.size > 0) {
      const sub = subcommunity ? info.subcommunities.get(subcommunity) : undefined;
      if (!sub) return false;
      subId = sub.id;
    }
    const entry = await enterLiveGame(ctx.db, gameId, userId, info.communityId, subId);
    if (entry === null) return false;
    socket.data.participationId = entry;
    return true;
  }

  async function acceptAnswer(
    socket: LiveSocket,
    answer: { question_i: number; choice_i: number | null; number_answer: number | null },
    receivedAt: number,
  ): Promise<LiveAnswerAck> {
    // A player who answers right after asking to join (a late joiner quick on the button) is not
    // refused while the join still writes their entry.
    if (socket.data.participationId === null && socket.data.joining) await socket.data.joining;
    const { gameId, participationId } = socket.data;
    if (participationId === null) return { ok: false, error: 'Join the lobby first' };
    const info = await schedules.get(gameId);
    if (!info) return { ok: false, error: 'No such live game' };
    // Scoring starts at the complete time: an answer after it would be stored but never counted.
    if (receivedAt >= info.completeAt) return { ok: false, error: 'This game is over' };
    if (!answerInTime(info.schedule, answer.question_i, receivedAt, roundTripMs(socket) / 2)) {
      return { ok: false, error: notInTime(info.schedule, answer.question_i, receivedAt) };
    }
    const checked = validateAnswer(
      info.questions.find((q) => q.i === answer.question_i),
      answer,
    );
    try {
      const stored = await batcher.add(
        participationId,
        checked,
        answeredAt(receivedAt, roundTripMs(socket) / 2),
      );
      return { ok: true, answer: stored };
    } catch (err) {
      if (!(err instanceof EntryGoneError)) throw err;
      // The player left the community and their entry went with it: this socket's answers stop
      // here, before the database (its lobby join checks membership again).
      if (socket.data.participationId === participationId) socket.data.participationId = null;
      return { ok: false, error: `Join ${info.communityName} to play` };
    }
  }

  const ending = socketEnding(io, players, (gameId) => schedules.get(gameId), !!ctx.config.redisUrl);

  /** Brings a (re)connecting player up to date: phase, their answers, the question in progress. */
  async function resume(socket: LiveSocket, gameId: string) {
    const info = await schedules.get(gameId);
    if (!info || !socket.connected) return;
    const answers = socket.data.participationId ? await answersOf(ctx.db, socket.data.participationId) : [];
    const players = await playerCount(gameId);
    // The latest result out, for the summary between questions and at the end.
    const result = await results.latest(gameId, info.schedule).catch(() => null);
    if (!socket.connected) return;
    // The phase as of sending, not as of the reads above: the time left is true, and a question
    // that closed meanwhile is not sent after the next one's broadcast.
    const now = ctx.now().getTime();
    const phase = livePhaseAt(info.schedule, now);
    // The count may have been cached (and a late joiner adds one): the next check corrects it.
    counts.get(gameId)?.served.set(socket, players);
    announceCount(socket.nsp as LiveNamespace, gameId);
    const events: OutgoingEvent[] = [
      [
        'resume',
        {
          phase: phase.kind,
          in_lobby: socket.data.participationId !== null,
          answers,
          players,
          time_left: Math.max(0, phaseEndsAt(phase) - now),
          last_question: phase.kind === 'between' ? questionEvent(info, phase.i, now) : null,
          last_result: result && results.resumeEvent(result, phase, socket.data.participationId),
        },
      ],
    ];
    if (phase.kind === 'question') events.push(['question', questionEvent(info, phase.i, now)]);
    broadcaster.sendNow(socket, events);
  }

  return {
    schedules,
    batcher,
    broadcaster,
    transport,
    answerPaths,
    results,
    announcer,
    /** A player left a community: their live sockets in its games end, on every process. */
    endPlayer: ending.endPlayer,
    /** A session ended (a logout, a login over it): its live sockets end, on every process. */
    endSession: ending.endSession,
    /** The namespace of one game, for the driver's broadcasts (a child of the pattern namespace). */
    of(gameId: string): LiveNamespace {
      return io.of(`/game/${gameId}`) as unknown as LiveNamespace;
    },
    /**
     * Drops a game's namespace here, once its broadcasts are written, if nobody here plays it.
     * socket.io drops a child namespace when its last socket leaves, but the one `of` makes for the
     * driver on a process without players never had one: a long-running process would keep one per
     * game it drove, each with its adapter's Redis subscriptions.
     */
    async release(gameId: string, stillFree: () => boolean): Promise<void> {
      await broadcaster.settled(gameId);
      // Not once this process drives the game again.
      await children.drop(`/game/${gameId}`, stillFree);
    },
  };
}

export type LiveHub = ReturnType<typeof registerLiveNamespace>;
export type { LiveGameInfo };
