import type { QuestionItem } from '@hunch/contract';
import type { LiveSchedule } from '@hunch/rules';
import type { Queryable } from '../db/database';
import { loadQuestions } from '../games/participation';

export interface LiveGameInfo {
  gameId: string;
  schedule: LiveSchedule;
  questions: QuestionItem[];
  communityId: number;
  completeAt: number;
}

/**
 * A live game's timeline and questions. Both are fixed once the game starts, so each process
 * caches them; the timeline starts at schedule.standby.
 */
export class LiveScheduleCache {
  private cache = new Map<string, { info: LiveGameInfo; loadedAt: number }>();

  constructor(private readonly db: Queryable) {}

  async get(gameId: string): Promise<LiveGameInfo | undefined> {
    const hit = this.cache.get(gameId);
    // Re-read now and then: a host may still edit a game before it starts.
    if (hit && Date.now() - hit.loadedAt < 30_000) return hit.info;
    const { rows } = await this.db.query<{
      standby_at: Date;
      complete_at: Date;
      community_id: number;
      secs: number[];
    }>(
      `SELECT g.standby_at, g.complete_at, s.community_id,
              COALESCE((SELECT array_agg(q.secs_to_answer ORDER BY q.i) FROM questions q WHERE q.game_id = g.id), '{}') AS secs
         FROM games g JOIN series s ON s.id = g.series_id WHERE g.id = $1 AND g.synchronous`,
      [gameId],
    );
    const row = rows[0];
    if (!row) return undefined;
    const info: LiveGameInfo = {
      gameId,
      schedule: { startAt: new Date(row.standby_at).getTime(), secs: row.secs },
      questions: await loadQuestions(this.db, gameId),
      communityId: row.community_id,
      completeAt: new Date(row.complete_at).getTime(),
    };
    this.cache.set(gameId, { info, loadedAt: Date.now() });
    return info;
  }
}
