import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type {
  GameClientToServer,
  GameServerToClient,
  LiveQuestionEvent,
  SeasonGameInput,
  SeasonInput,
} from '@hunch/contract';
import { liveEndsAt } from '@hunch/rules';
import { io, type Socket } from 'socket.io-client';
import { deleteEndedGames } from '../games/community-standings';
import type { Actor } from '../hosting/audit-log';
import { importSeason } from '../hosting/season-import';
import { lockCommunityEndpoint } from '../hosting/season-queries';
import type { AppContext } from '../platform/app-context';
import type { Db, Queryable } from '../platform/db/database';
import { DEFAULT_IMAGE } from '../platform/images';
import { SESSION_COOKIE } from '../platform/sessions';
import { LIVE_SERIES, questionSets } from './demo-content';
import { withLivePictures } from './live-pictures';

const BOTS_PER_GAME = 12;
const TICK_MS = 10_000;
/** How long a live game only the bots played stays after its end (pruneLiveDemo). */
export const BOT_GAME_KEPT_MS = 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;
/** A demo player the live demo runs (SQL over users u): it has no password and cannot log in. */
const IS_BOT = "u.is_demo AND u.password_hash = '!'";
/** The bots' lease outlives two missed renewals; a dead holder's bots come back within about this long. */
export const BOTS_LEASE_MS = 25_000;
/** Who the audit log says created the live games. */
export const LIVE_DEMO_ACTOR: Actor = { userId: null, name: 'live demo' };

type BotSocket = Socket<GameServerToClient, GameClientToServer>;

/**
 * Keeps the demo live series going: the next two games always exist, and demo players (bots)
 * join each lobby and answer through the same socket protocol as people do. Games are created by
 * importing a season document that names the live series and its next games by key, so a second
 * process importing the same games changes nothing; running a game's bots is claimed in the
 * database, so with several processes it happens once. The bots' claim is a lease renewed every
 * tick: when their process dies (or restarts) mid-game, another takes them over, and they rejoin
 * the game in progress.
 */
export class LiveDemo {
  private timer: NodeJS.Timeout | undefined;
  /** The tick in progress: a slow one is never overlapped by the next (it would start bots twice). */
  private ticking: Promise<void> | undefined;
  private stopped = false;
  private prunedAt = -Infinity;
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
    // Bots go on with the games there are even when creating the next ones failed this time.
    await ensureLiveGames(this.ctx, seriesId).catch(() => undefined);
    await this.runBots(seriesId);
    const now = this.ctx.now().getTime();
    if (now - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = now;
      await pruneLiveDemo(this.ctx.db, seriesId, this.ctx.now()).catch(() => undefined);
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
        WHERE ${IS_BOT} AND c.endpoint = $1
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

/**
 * Keeps the demo's own leftovers from growing without end (a game every five minutes is 288 a
 * day, past a season document's 500 games per series in two days, and the console saves through
 * that document): a live game that only the bots played is deleted a day after its end, its scores
 * taken out of the community's standings (games deleteEndedGames), and the bots' sessions once
 * they have expired. A game a person played stays: it is in their history. Under the community's
 * import lock, as a host's delete is: a console save checked against the document before it waits.
 * Not in the audit log, which would be all prunes. Returns how many games went.
 */
export async function pruneLiveDemo(db: Db, seriesId: number, now: Date): Promise<number> {
  const gone = await db.transaction(async (tx) => {
    await lockCommunityEndpoint(tx, LIVE_SERIES.community);
    const { rows } = await tx.query<{ id: string; community_id: number }>(
      `SELECT g.id::text AS id, s.community_id FROM games g JOIN series s ON s.id = g.series_id
        WHERE g.series_id = $1 AND g.complete_at < $2
          AND NOT EXISTS (SELECT 1 FROM participations p JOIN users u ON u.id = p.user_id
                           WHERE p.game_id = g.id AND NOT (${IS_BOT}))`,
      [seriesId, new Date(now.getTime() - BOT_GAME_KEPT_MS)],
    );
    if (rows.length === 0) return [];
    return deleteEndedGames(
      tx,
      rows[0]!.community_id,
      rows.map((r) => r.id),
    );
  });
  await db.query(
    `DELETE FROM sessions s USING users u WHERE u.id = s.user_id AND ${IS_BOT} AND s.expires_at < $1`,
    [now],
  );
  return gone.length;
}

/**
 * Makes sure the live series' next two games exist, through the season import: a missing one is
 * imported in a document that names the live series and that game only.
 */
export async function ensureLiveGames(ctx: AppContext, seriesId: number): Promise<void> {
  const { everyS, lobbyS, questionS } = ctx.config.liveDemo;
  const slotMs = everyS * 1000;
  const now = ctx.now().getTime();
  // The next slots far enough ahead that their lobby has not opened yet, or only just.
  const first = Math.ceil((now + Math.min(60_000, slotMs / 2)) / slotMs) * slotMs;
  const starts = [first, first + slotMs];
  // Most ticks find both games there: only a missing one costs an import.
  const { rows } = await ctx.db.query<{ standby_at: Date }>(
    'SELECT standby_at FROM games WHERE series_id = $1 AND standby_at = ANY($2::timestamptz[])',
    [seriesId, starts.map((t) => new Date(t).toISOString())],
  );
  const taken = new Set(rows.map((r) => new Date(r.standby_at).getTime()));
  const games = await Promise.all(
    starts
      .filter((start) => !taken.has(start))
      .map((start) => {
        const slot = Math.floor(start / slotMs);
        const theme = questionSets[slot % questionSets.length]!.theme;
        return withLivePictures(ctx.uploadsDir, slot, theme, liveGame(start, slotMs, lobbyS, questionS));
      }),
  );
  if (games.length === 0) return;
  const season = await liveSeason(ctx.db, games);
  if (!season) return;
  // Another process importing the same games at once waits for this one, then finds them there.
  await importSeason(
    ctx.db,
    { kind: 'text', text: JSON.stringify(season), format: 'json' },
    {
      dryRun: false,
      actor: LIVE_DEMO_ACTOR,
      authorize: async () => undefined,
      now: ctx.now(),
      uploadsDir: ctx.uploadsDir,
    },
  );
}

/** The live game of the slot starting at `start`: its key is its start time, its questions a demo set. */
function liveGame(start: number, slotMs: number, lobbyS: number, questionS: number): SeasonGameInput {
  const set = questionSets[Math.floor(start / slotMs) % questionSets.length]!;
  const questions = set.questions.slice(0, 4).map((q) => ({ ...q, secs_to_answer: questionS }));
  const at = (t: number) => new Date(t).toISOString();
  return {
    key: `live-${at(start).replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}`,
    name: `Hunch Live #${Math.floor(start / slotMs) % 1000}`,
    synchronous: true,
    schedule: {
      open: at(start - lobbyS * 1000),
      standby: at(start),
      // Results as soon as the live part is over, and the game page says so beforehand.
      complete: at(liveEndsAt({ startAt: start, secs: questions.map(() => questionS) })),
    },
    questions,
  };
}

/**
 * A season document of the live series holding only these games. Its community and series are
 * written as they are stored, so the import leaves them unchanged (a field left out would keep
 * what is stored too, decision 020); series and games it does not name stay as they are.
 * Undefined when the live series does not exist.
 */
export async function liveSeason(db: Queryable, games: SeasonGameInput[]): Promise<SeasonInput | undefined> {
  const { rows } = await db.query<{
    community_name: string;
    community_description: string;
    community_image: string;
    listed: boolean;
    categories: string[];
    name: string;
    description: string;
    image: string;
  }>(
    `SELECT c.name AS community_name, c.description AS community_description, c.image AS community_image,
            c.listed, s.name, s.description, s.image,
            COALESCE((SELECT array_agg(cat.name ORDER BY cat.position, cat.name) FROM community_categories cc
                        JOIN categories cat ON cat.id = cc.category_id WHERE cc.community_id = c.id), '{}')
              AS categories
       FROM communities c JOIN series s ON s.community_id = c.id WHERE c.endpoint = $1 AND s.endpoint = $2`,
    [LIVE_SERIES.community, LIVE_SERIES.endpoint],
  );
  const row = rows[0];
  if (!row) return undefined;
  const image = (name: string) => (name === DEFAULT_IMAGE ? {} : { image: name });
  return {
    community: {
      endpoint: LIVE_SERIES.community,
      name: row.community_name,
      description: row.community_description,
      ...image(row.community_image),
      listed: row.listed,
      categories: row.categories,
    },
    series: [
      {
        endpoint: LIVE_SERIES.endpoint,
        name: row.name,
        description: row.description,
        ...image(row.image),
        games,
      },
    ],
  };
}
