import type { QuestionItem } from '@hunch/contract';
import type { LiveSchedule } from '@hunch/rules';
import type { Queryable } from '../db/database';
import { loadQuestions } from '../games/participation';

export interface LiveGameInfo {
  gameId: string;
  schedule: LiveSchedule;
  questions: QuestionItem[];
  communityId: number;
  communityName: string;
  openAt: number;
  completeAt: number;
  /** endpoint -> community id and name; empty when the game has none. */
  subcommunities: Map<string, { id: number; name: string }>;
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
      open_at: Date;
      standby_at: Date;
      complete_at: Date;
      community_id: number;
      community_name: string;
      secs: number[];
      subs: [string, number, string][] | null;
    }>(
      `SELECT g.open_at, g.standby_at, g.complete_at, s.community_id, c.name AS community_name,
              COALESCE((SELECT array_agg(q.secs_to_answer ORDER BY q.i) FROM questions q WHERE q.game_id = g.id), '{}') AS secs,
              (SELECT json_agg(json_build_array(sc.endpoint, sc.id, sc.name)) FROM game_subcommunities gs
                 JOIN communities sc ON sc.id = gs.community_id WHERE gs.game_id = g.id) AS subs
         FROM games g JOIN series s ON s.id = g.series_id JOIN communities c ON c.id = s.community_id
        WHERE g.id = $1 AND g.synchronous`,
      [gameId],
    );
    const row = rows[0];
    if (!row) return undefined;
    const info: LiveGameInfo = {
      gameId,
      schedule: { startAt: new Date(row.standby_at).getTime(), secs: row.secs },
      questions: await loadQuestions(this.db, gameId),
      communityId: row.community_id,
      communityName: row.community_name,
      openAt: new Date(row.open_at).getTime(),
      completeAt: new Date(row.complete_at).getTime(),
      subcommunities: new Map((row.subs ?? []).map(([endpoint, id, name]) => [endpoint, { id, name }])),
    };
    this.cache.set(gameId, { info, loadedAt: Date.now() });
    return info;
  }
}
