import type { GameState } from '@hunch/contract';
import type { AppContext } from '../platform/app-context';
import type { Queryable } from '../platform/db/database';
import {
  type GameStatistics,
  gamesDueForRescoring,
  gamesDueForScoring,
  rescoreIfDue,
  scoreGame,
  scoreGameWithStatistics,
} from './scoring';

export type AnnounceState = (gameId: string, state: GameState) => void;

/** Where a game that failed to score is reported (the app's logger). */
export interface ClockLog {
  error(details: object, message: string): void;
}

/** How far back a missed boundary is still announced (a server that was down catches up). */
const CATCH_UP = '1 hour';

/**
 * Claims the schedule boundaries that have passed and were not announced yet. The insert is the
 * claim: with several processes, exactly one gets each (game, state) row back and announces it.
 */
async function claimBoundaries(db: Queryable, now: Date): Promise<{ game_id: string; state: GameState }[]> {
  const { rows } = await db.query<{ game_id: string; state: GameState }>(
    `INSERT INTO game_state_events (game_id, state)
     SELECT g.id, b.state
       FROM games g
       CROSS JOIN LATERAL (VALUES ('open', g.open_at), ('standby', g.standby_at), ('results', g.complete_at)) AS b(state, at)
      WHERE b.at <= $1 AND b.at > $1::timestamptz - interval '${CATCH_UP}'
        AND (b.state <> 'results' OR g.scored_at IS NULL)
     ON CONFLICT DO NOTHING
     RETURNING game_id::text, state`,
    [now],
  );
  return rows;
}

/**
 * The per-process game clock: every tick it announces passed boundaries and scores games whose
 * schedule is complete. Each piece of work is claimed in the database, so any number of processes
 * may run it and each change still happens, and is announced, once.
 */
export class GameClock {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly announce: AnnounceState,
    private readonly statistics?: GameStatistics,
    private readonly log?: ClockLog,
  ) {}

  start(intervalMs = 500): void {
    this.timer = setInterval(() => void this.tick().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass; concurrent calls share the pass in flight. */
  tick(): Promise<void> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pass(): Promise<void> {
    const now = this.ctx.now();
    for (const { game_id, state } of await claimBoundaries(this.ctx.db, now)) this.announce(game_id, state);
    // Games whose entries changed since their scoring (a player left): their open results pages
    // follow, as after a correction. Before the first scorings, which read those changes anyway: a
    // game left while open is dropped from those due, not scored twice.
    for (const id of await gamesDueForRescoring(this.ctx.db)) {
      try {
        if (await rescoreIfDue(this.ctx.db, id, this.statistics?.rebuild)) this.announce(id, 'complete');
      } catch (err) {
        this.log?.error({ err, gameId: id }, 'Scoring a game again failed; it stays due and is tried again');
      }
    }
    for (const id of await gamesDueForScoring(this.ctx.db, now)) {
      // One game that cannot be scored (its transaction rolled back: a host's change raced the
      // claim) must not hold up the others due in this tick; it is tried again on the next one.
      try {
        if (await this.score(id, now)) this.announce(id, 'complete');
      } catch (err) {
        this.log?.error({ err, gameId: id }, 'Scoring a game failed; it stays unscored and is tried again');
      }
    }
  }

  /**
   * Scores one game now if it is due (a host entered the last outcome it waited for): what the next
   * tick would do for it, without waiting for it or for the other games of a pass.
   */
  async scoreNow(gameId: string): Promise<void> {
    try {
      if (await this.score(gameId, this.ctx.now())) this.announce(gameId, 'complete');
    } catch (err) {
      this.log?.error({ err, gameId }, 'Scoring a game failed; it stays unscored and is tried again');
    }
  }

  private score(id: string, now: Date): Promise<boolean> {
    // The 'complete' claim commits with the scores: a game is never scored but left unannounced.
    const announced = async (tx: Queryable, gameId: string) => {
      await tx.query(
        `INSERT INTO game_state_events (game_id, state) VALUES ($1, 'complete') ON CONFLICT DO NOTHING`,
        [gameId],
      );
    };
    return this.statistics
      ? scoreGameWithStatistics(this.ctx.db, id, now, this.statistics, announced)
      : scoreGame(this.ctx.db, id, now, announced);
  }
}
