import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { GameClientToServer, GameServerToClient, LiveQuestionEvent } from '@hunch/contract';
import { liveEndsAt } from '@hunch/rules';
import { io, type Socket } from 'socket.io-client';
import { createGame } from '../hosting/authoring';
import type { AppContext } from '../platform/app-context';
import { SESSION_COOKIE } from '../platform/sessions';
import { questionSets } from './demo-content';

const BOTS_PER_GAME = 12;
const TICK_MS = 10_000;
/** The bots' lease outlives two missed renewals; a dead holder's bots come back within about this long. */
export const BOTS_LEASE_MS = 25_000;
export const LIVE_SERIES = { community: 'hunch-hq', endpoint: 'hunch-live', name: 'Hunch Live' } as const;

type BotSocket = Socket<GameServerToClient, GameClientToServer>;

/**
 * Keeps the demo live series going: the next two games always exist, and demo players (bots)
 * join each lobby and answer through the same socket protocol as people do. Creating a game and
 * running a game's bots are both claimed in the database, so with several processes each happens
 * once. The bots' claim is a lease renewed every tick: when their process dies (or restarts)
 * mid-game, another takes them over, and they rejoin the game in progress.
 */
export class LiveDemo {
  private timer: NodeJS.Timeout | undefined;
  /** The tick in progress: a slow one is never overlapped by the next (it would start bots twice). */
  private ticking: Promise<void> | undefined;
  private stopped = false;
  private bots = new Map<string, BotSocket[]>();
  private readonly id = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  constructor(
    private readonly ctx: AppContext,
    private readonly baseUrl: string,
  ) {}

  start(): void {
    const run = () => {
      this.ticking ??= this.tick()
        .catch(() => undefined)
        .finally(() => {
          this.ticking = undefined;
        });
    };
    this.timer = setInterval(run, TICK_MS);
    this.timer.unref();
    run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.ticking;
    for (const sockets of this.bots.values()) for (const s of sockets) s.close();
    const held = [...this.bots.keys()];
    this.bots.clear();
    // Handed back, so a process that carries on (or this server, restarted) takes them at once.
    await this.ctx.db
      .query(
        'UPDATE live_games SET bots_holder = NULL, bots_until = NULL WHERE bots_holder = $1 AND game_id = ANY($2::uuid[])',
        [this.id, held],
      )
      .catch(() => undefined);
  }

  private async tick(): Promise<void> {
    const series = await this.ctx.db.query<{ id: number }>(
      `SELECT s.id FROM series s JOIN communities c ON c.id = s.community_id WHERE c.endpoint = $1 AND s.endpoint = $2`,
      [LIVE_SERIES.community, LIVE_SERIES.endpoint],
    );
    const seriesId = series.rows[0]?.id;
    if (seriesId === undefined) return;
    await this.ensureUpcoming(seriesId);
    await this.runBots(seriesId);
  }

  private async ensureUpcoming(seriesId: number): Promise<void> {
    const { everyS, lobbyS, questionS } = this.ctx.config.liveDemo;
    const slotMs = everyS * 1000;
    const now = this.ctx.now().getTime();
    // The next slots far enough ahead that their lobby has not opened yet, or only just.
    const first = Math.ceil((now + Math.min(60_000, slotMs / 2)) / slotMs) * slotMs;
    for (const start of [first, first + slotMs]) {
      const set = questionSets[Math.floor(start / slotMs) % questionSets.length]!;
      const questions = set.questions.slice(0, 4).map((q) => ({ ...q, secs_to_answer: questionS }));
      const n = Math.floor(start / slotMs) % 1000;
      try {
        await createGame(this.ctx.db, seriesId, {
          name: `Hunch Live #${n}`,
          schedule: {
            open: new Date(start - lobbyS * 1000),
            standby: new Date(start),
            // Results as soon as the live part is over, and the game page says so beforehand.
            complete: new Date(liveEndsAt({ startAt: start, secs: questions.map((q) => q.secs_to_answer) })),
          },
          synchronous: true,
          questions,
        });
      } catch {
        // Another process created this slot's game first (unique series + start).
      }
    }
  }

  /** Claims (or renews) the bots of every game from its lobby's opening until its live part is over. */
  private async runBots(seriesId: number): Promise<void> {
    const now = this.ctx.now();
    const { rows } = await this.ctx.db.query<{ id: string; standby_at: Date }>(
      `SELECT g.id::text, g.standby_at FROM games g LEFT JOIN live_games l ON l.game_id = g.id
        WHERE g.series_id = $1 AND g.open_at <= $2 AND g.complete_at > $2 AND l.finished_at IS NULL`,
      [seriesId, now],
    );
    const until = new Date(now.getTime() + BOTS_LEASE_MS);
    // Bots of a game that is over (one that missed its game_complete, say) go.
    const current = new Set(rows.map((r) => r.id));
    for (const id of this.bots.keys()) if (!current.has(id)) this.dropBots(id);
    for (const { id, standby_at } of rows) {
      if (this.stopped) return;
      // A holder whose lease ran out is gone (a row from before leases has none: gone too).
      const claim = await this.ctx.db.query(
        `INSERT INTO live_games (game_id, bots_holder, bots_until) VALUES ($1, $2, $3)
         ON CONFLICT (game_id) DO UPDATE SET bots_holder = $2, bots_until = $3
          WHERE live_games.bots_holder IS NULL OR live_games.bots_holder = $2
             OR live_games.bots_until IS NULL OR live_games.bots_until < $4
         RETURNING game_id`,
        [id, this.id, until, now],
      );
      if (claim.rows.length === 0) {
        // Another process has them (it took over from us, say): ours go.
        this.dropBots(id);
        continue;
      }
      if (!this.bots.has(id)) this.bots.set(id, await this.startBots(id, standby_at.getTime()));
    }
  }

  private dropBots(gameId: string): void {
    for (const s of this.bots.get(gameId) ?? []) s.close();
    this.bots.delete(gameId);
  }

  /**
   * Logs demo players in (a session row each) and sends them into the lobby over socket.io; taken
   * over mid-game, the ones already in the game first, and into the game in progress at once.
   */
  private async startBots(gameId: string, startAt: number): Promise<BotSocket[]> {
    const { rows } = await this.ctx.db.query<{ id: number }>(
      `SELECT u.id FROM users u JOIN memberships m ON m.user_id = u.id JOIN communities c ON c.id = m.community_id
        WHERE u.is_demo AND u.password_hash = '!' AND c.endpoint = $1
        ORDER BY EXISTS (SELECT 1 FROM participations p WHERE p.user_id = u.id AND p.game_id = $3) DESC, random()
        LIMIT $2`,
      [LIVE_SERIES.community, BOTS_PER_GAME, gameId],
    );
    const sockets: BotSocket[] = [];
    for (const { id } of rows) {
      const token = randomBytes(32).toString('base64url');
      await this.ctx.db.query(
        `INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')`,
        [createHash('sha256').update(token).digest('hex'), id],
      );
      const socket: BotSocket = io(`${this.baseUrl}/game/${gameId}`, {
        transports: ['websocket'],
        forceNew: true,
        extraHeaders: { cookie: `${SESSION_COOKIE}=${token}` },
      });
      socket.on('latency', (ack) => ack());
      // Bots drift into the lobby over the first half of its opening time (before the start).
      let joined: Promise<boolean> | undefined;
      const join = () => {
        joined ??= socket.emitWithAck('lobby').catch(() => false);
        return joined;
      };
      socket.on('connect', () => {
        joined = undefined;
        const lobbyMs = this.ctx.config.liveDemo.lobbyS * 500;
        const drift = Math.min(Math.random() * lobbyMs, startAt - 1_000 - this.ctx.now().getTime());
        setTimeout(() => void join(), Math.max(0, drift));
      });
      socket.on('question', (q) => this.answerLater(socket, q, join));
      // Done at the end, or when they came in after it (a takeover just before the end).
      const done = () => {
        socket.close();
        this.dropBots(gameId);
      };
      socket.on('game_complete', done);
      socket.on('resume', ({ phase }) => {
        if (phase === 'complete') done();
      });
      sockets.push(socket);
    }
    return sockets;
  }

  private answerLater(socket: BotSocket, q: LiveQuestionEvent, join: () => Promise<boolean>): void {
    const delay = Math.random() * Math.max(500, q.time_left - 1500);
    setTimeout(async () => {
      // A bot that came in mid-game answers once it is in.
      if (!(await join())) return;
      const slider = q.question.slider;
      const answer = slider
        ? {
            question_i: q.i,
            choice_i: null,
            number_answer:
              slider.min +
              Math.round((Math.random() * (slider.max - slider.min)) / slider.step) * slider.step,
          }
        : {
            question_i: q.i,
            choice_i: Math.floor(Math.random() * q.question.choices.length),
            number_answer: null,
          };
      socket.emit('answer', answer, () => undefined);
    }, delay);
  }
}
