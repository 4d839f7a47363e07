import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { countdownSecs, liveEndsAt, stepAt, stepDue } from '@hunch/rules';
import type { AppContext } from '../platform/app-context';
import { questionEvent } from './live-events';
import type { LiveGameInfo, LiveHub } from './live-namespace';
import { makeRoomInYoungGeneration } from './young-generation';

/** A lease outlives two missed renewals; a dead holder's game moves on within about this long. */
export const LEASE_MS = 3_000;
const TICK_MS = 1_000;
/**
 * How long before each step the driving process makes room in its young generation, so that a
 * scavenge does not land in the step's broadcast (decision 013): long enough for a few ms of GC, short
 * enough that little is allocated between.
 */
export const STEP_PREPARE_MS = 500;

interface Held {
  epoch: number;
  step: number;
  timer?: NodeJS.Timeout;
  /** Runs `beforeStep` STEP_PREPARE_MS before the next step. */
  prepare?: NodeJS.Timeout;
  /** The step last prepared for (once each, though the claim tick re-arms the timers). */
  preparedFor?: number;
  /**
   * Taken over from another process: its last step may have reached only some slices (it died
   * mid-broadcast), so that step is sent again if it is still the current one.
   */
  resend: boolean;
}

/**
 * Drives live games. Every process runs one; for each live game exactly one process holds its
 * lease (a row in live_games with an expiry it renews every second). The holder announces each
 * step of the game's timeline when it falls due; every write carries the holder's epoch (a fencing
 * token bumped on each takeover), so a holder that was presumed dead cannot announce anything
 * after another took over. The timeline itself comes from the stored schedule, so a new holder
 * carries on from the same clock.
 */
export class LiveConductor {
  // host:pid:random — the pid tells operators (and the scale-out test) which process drives a game.
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private held = new Map<string, Held>();
  /** Games whose advance is running: the claim tick and the step timer never run it twice at once. */
  private advancing = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  /** Called once per game when its last step is announced (takeover metrics, bots). */
  onFinished: (gameId: string) => void = () => {};

  constructor(
    private readonly ctx: AppContext,
    private readonly hub: LiveHub,
    /** Runs STEP_PREPARE_MS before each step this process announces. */
    private readonly beforeStep: () => void = makeRoomInYoungGeneration,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick().catch(() => undefined), TICK_MS);
    this.timer.unref();
    void this.tick().catch(() => undefined);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.ticking;
    for (const h of this.held.values()) this.clearTimers(h);
    // Forgotten before the await, so that an advance still running arms nothing (see advanceNow).
    this.held.clear();
    // Hand the leases back so another process takes over at once, not at expiry.
    await this.ctx.db
      .query('UPDATE live_games SET holder = NULL, lease_until = NULL WHERE holder = $1', [this.id])
      .catch(() => undefined);
  }

  tick(): Promise<void> {
    this.ticking ??= this.pass().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  /** Games whose live part is due or under way: started (or about to) and not finished. */
  private async pass(): Promise<void> {
    const now = this.ctx.now();
    const { rows } = await this.ctx.db.query<{ id: string }>(
      `SELECT g.id::text AS id FROM games g LEFT JOIN live_games l ON l.game_id = g.id
        WHERE g.synchronous AND g.standby_at <= $1::timestamptz + interval '2 seconds'
          AND g.complete_at > $1::timestamptz - interval '1 hour' AND l.finished_at IS NULL AND g.scored_at IS NULL`,
      [now],
    );
    for (const { id } of rows) await this.claim(id, now);
  }

  private async claim(gameId: string, now: Date): Promise<void> {
    await this.ctx.db.query('INSERT INTO live_games (game_id) VALUES ($1) ON CONFLICT DO NOTHING', [gameId]);
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    const { rows } = await this.ctx.db.query<{ epoch: number; step: number }>(
      `UPDATE live_games
          SET epoch = CASE WHEN holder = $2 THEN epoch ELSE epoch + 1 END, holder = $2, lease_until = $3
        WHERE game_id = $1 AND finished_at IS NULL
          AND (holder IS NULL OR holder = $2 OR lease_until < $4)
        RETURNING epoch, step`,
      [gameId, this.id, leaseUntil, now],
    );
    const row = rows[0];
    if (!row) {
      // Someone else holds it (or it is finished): stop driving if we thought we were.
      if (this.held.has(gameId)) this.letGo(gameId);
      return;
    }
    const mine = this.held.get(gameId);
    if (!mine || mine.epoch !== row.epoch) {
      if (mine) this.clearTimers(mine);
      this.held.set(gameId, { epoch: row.epoch, step: row.step, resend: row.step >= 0 });
    }
    await this.advance(gameId);
  }

  /** Announces every step now due, then sleeps until the next one. */
  private async advance(gameId: string): Promise<void> {
    if (this.advancing.has(gameId)) return;
    this.advancing.add(gameId);
    try {
      await this.advanceNow(gameId);
    } finally {
      this.advancing.delete(gameId);
    }
  }

  private async advanceNow(gameId: string): Promise<void> {
    const held = this.held.get(gameId);
    const info = await this.hub.schedules.get(gameId);
    if (!held || !info) return;
    const now = this.ctx.now().getTime();
    const due = stepDue(info.schedule, now);
    const last = info.schedule.secs.length + 1;
    // (A copy of the schedule read before the start may lag; the resend waits for one that doesn't.)
    if (held.resend && due >= held.step) {
      // Players who had the start or the question see it again with the same end.
      if (due === held.step && due <= info.schedule.secs.length) this.announce(gameId, due, info);
      held.resend = false;
    }
    if (due > held.step) {
      const finished = due >= last;
      const { rows } = await this.ctx.db.query(
        `UPDATE live_games SET step = $3, finished_at = CASE WHEN $4 THEN now() ELSE finished_at END
          WHERE game_id = $1 AND epoch = $2 AND holder = $5 AND step < $3 RETURNING step`,
        [gameId, held.epoch, due, finished, this.id],
      );
      if (rows.length === 0) {
        // Fenced off: another process took over.
        this.letGo(gameId);
        return;
      }
      held.step = due;
      this.announce(gameId, due, info);
      if (finished) {
        // Results come as soon as the live part ends, not at the scheduled complete time.
        await this.ctx.db.query('UPDATE games SET complete_at = LEAST(complete_at, $2) WHERE id = $1', [
          gameId,
          new Date(liveEndsAt(info.schedule)),
        ]);
        this.letGo(gameId);
        this.onFinished(gameId);
        return;
      }
    }
    // Let go, stopped or taken over again meanwhile: another Held (or none) is in charge now.
    if (this.held.get(gameId) !== held) return;
    const next = stepAt(info.schedule, held.step + 1);
    this.clearTimers(held);
    held.timer = setTimeout(() => void this.advance(gameId).catch(() => undefined), Math.max(0, next - now));
    held.timer.unref();
    const upcoming = held.step + 1;
    if (next - now > STEP_PREPARE_MS && held.preparedFor !== upcoming) {
      held.prepare = setTimeout(
        () => {
          held.preparedFor = upcoming;
          try {
            this.beforeStep();
          } catch (err) {
            console.error(`live conductor: preparing step ${upcoming} of game ${gameId} failed: ${err}`);
          }
        },
        next - now - STEP_PREPARE_MS,
      );
      held.prepare.unref();
    }
  }

  private clearTimers(held: Held): void {
    clearTimeout(held.timer);
    clearTimeout(held.prepare);
  }

  /** Stops driving a game here; its namespace goes once its broadcasts are out, if nobody here plays. */
  private letGo(gameId: string): void {
    const held = this.held.get(gameId);
    if (held) this.clearTimers(held);
    this.held.delete(gameId);
    void this.hub.release(gameId, () => !this.held.has(gameId)).catch(() => undefined);
  }

  /** Broadcasts a step to the game's players, slice by slice (see SlicedBroadcaster). */
  private announce(gameId: string, step: number, info: LiveGameInfo): void {
    const nsp = this.hub.of(gameId);
    const { broadcaster } = this.hub;
    const n = info.schedule.secs.length;
    if (step === 0) {
      // The seconds left as of each slice's write: a start announced late (a takeover, a slow
      // first claim) counts down to the same first question as everyone else's.
      void broadcaster.send(gameId, nsp, 'game_start', () => [
        ['game_start'],
        ['countdown', { secs: countdownSecs(info.schedule, this.ctx.now().getTime()) }],
      ]);
    } else if (step <= n) {
      // time_left as of each slice's write, so a later slice is not told it has more time.
      void broadcaster.send(gameId, nsp, `question ${step - 1}`, () => [
        ['question', questionEvent(info, step - 1, this.ctx.now().getTime())],
      ]);
    } else {
      void broadcaster.send(gameId, nsp, 'game_complete', () => [['game_complete']]);
    }
  }
}
