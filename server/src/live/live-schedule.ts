import type { QuestionItem } from '@hunch/contract';
import type { LiveSchedule } from '@hunch/rules';
import { liveScheduleOf, loadQuestionRows, toQuestionItem } from '../core/question-queries';
import type { Queryable } from '../platform/db/database';

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

/** Before its start a host may still move a game: a cached copy is re-read after this long. */
const FRESH_BEFORE_START_MS = 2_000;
/** Copies of games completed longer ago than this are dropped: a long-running process forgets them. */
const FORGET_AFTER_COMPLETE_MS = 3_600_000;

/**
 * A live game's timeline and questions. Both are fixed once the game starts, so each process
 * caches them: a copy read after the start is kept; one read before is re-read every 2 s. Every
 * answer and connection asks, thousands a second, so one read per game is in flight at a time and
 * a known game is answered at once from its copy while it is re-read.
 */
export class LiveScheduleCache {
  private cache = new Map<string, { info: LiveGameInfo; wallAt: number; gameTimeAt: number }>();
  private loading = new Map<string, Promise<LiveGameInfo | undefined>>();

  /** `now` is the game clock (tests move it); freshness is measured on the wall clock. */
  constructor(
    private readonly db: Queryable,
    private readonly now: () => number = Date.now,
  ) {}

  get(gameId: string): Promise<LiveGameInfo | undefined> {
    const hit = this.cache.get(gameId);
    const fixed = hit && hit.gameTimeAt >= hit.info.schedule.startAt;
    if (hit && (fixed || Date.now() - hit.wallAt < FRESH_BEFORE_START_MS)) return Promise.resolve(hit.info);
    let loading = this.loading.get(gameId);
    if (!loading) {
      loading = this.load(gameId).finally(() => this.loading.delete(gameId));
      this.loading.set(gameId, loading);
    }
    if (!hit) return loading;
    // A failed re-read keeps the copy; the next call tries again.
    loading.catch(() => undefined);
    return Promise.resolve(hit.info);
  }

  private async load(gameId: string): Promise<LiveGameInfo | undefined> {
    const gameTimeAt = this.now();
    const wallAt = Date.now();
    const { rows } = await this.db.query<{
      open_at: Date;
      standby_at: Date;
      complete_at: Date;
      community_id: number;
      community_name: string;
      subs: [string, number, string][] | null;
    }>(
      `SELECT g.open_at, g.standby_at, g.complete_at, s.community_id, c.name AS community_name,
              (SELECT json_agg(json_build_array(sc.endpoint, sc.id, sc.name)) FROM game_subcommunities gs
                 JOIN communities sc ON sc.id = gs.community_id WHERE gs.game_id = g.id) AS subs
         FROM games g JOIN series s ON s.id = g.series_id JOIN communities c ON c.id = s.community_id
        WHERE g.id = $1 AND g.synchronous`,
      [gameId],
    );
    const row = rows[0];
    if (!row) {
      this.cache.delete(gameId);
      return undefined;
    }
    const questions = await loadQuestionRows(this.db, gameId);
    const info: LiveGameInfo = {
      gameId,
      schedule: liveScheduleOf(new Date(row.standby_at).getTime(), questions),
      questions: questions.map(toQuestionItem),
      communityId: row.community_id,
      communityName: row.community_name,
      openAt: new Date(row.open_at).getTime(),
      completeAt: new Date(row.complete_at).getTime(),
      subcommunities: new Map((row.subs ?? []).map(([endpoint, id, name]) => [endpoint, { id, name }])),
    };
    this.cache.set(gameId, { info, wallAt, gameTimeAt });
    for (const [id, entry] of this.cache) {
      if (id !== gameId && entry.info.completeAt < gameTimeAt - FORGET_AFTER_COMPLETE_MS)
        this.cache.delete(id);
    }
    return info;
  }
}
