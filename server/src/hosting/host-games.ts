import type { HostGame } from '@hunch/contract';
import { gameStateAt } from '@hunch/rules';
import type { Db, Queryable } from '../platform/db/database';
import { HttpError } from '../platform/http/http-error';
import { type Actor, recordAudit } from './audit-log';
import { loadStoredGame } from './game-store';
import { isoTime, seasonGame } from './season-convert';
import { lockCommunityEndpoint } from './season-queries';

interface GameRow {
  uuid: string;
  series: string;
  key: string;
  name: string;
  open_at: Date;
  standby_at: Date;
  complete_at: Date;
  scored: boolean;
  participants: number;
}

interface QuestionRow {
  game_id: string;
  i: number;
  kind: HostGame['questions'][number]['kind'];
  text: string;
  outcome_kind: 'number' | 'crowd' | 'pending' | null;
  outcome: number | null;
  voided: boolean;
  slider_min: number | null;
  slider_max: number | null;
  slider_step: number | null;
  slider_unit: string | null;
}

/**
 * The crowd medians of a community's scored games, as scoring took them (rules predictTruthCrowd:
 * the middle answer, or the mean of the two middle ones), keyed `${game}:${i}`.
 */
async function crowdMedians(db: Queryable, communityId: number): Promise<Map<string, number>> {
  const { rows } = await db.query<{ game_id: string; question_i: number; median: number }>(
    `SELECT game_id::text AS game_id, question_i,
            CASE WHEN n % 2 = 1 THEN max(v) FILTER (WHERE rn = n / 2 + 1)
                 ELSE (max(v) FILTER (WHERE rn = n / 2) + max(v) FILTER (WHERE rn = n / 2 + 1)) / 2 END AS median
       FROM (SELECT q.game_id, q.i AS question_i, a.number_answer AS v,
                    row_number() OVER (PARTITION BY q.game_id, q.i ORDER BY a.number_answer) AS rn,
                    count(*) OVER (PARTITION BY q.game_id, q.i) AS n
               FROM questions q
               JOIN games g ON g.id = q.game_id AND g.scored_at IS NOT NULL
               JOIN series s ON s.id = g.series_id
               JOIN participations p ON p.game_id = q.game_id
               JOIN answers a ON a.participation_id = p.id AND a.question_i = q.i
              WHERE s.community_id = $1 AND q.outcome_kind = 'crowd' AND a.number_answer IS NOT NULL) ranked
      GROUP BY game_id, question_i, n`,
    [communityId],
  );
  return new Map(rows.map((r) => [`${r.game_id}:${r.question_i}`, Number(r.median)]));
}

function outcomeOf(q: QuestionRow, medians: Map<string, number>): HostGame['questions'][number]['outcome'] {
  if (q.kind !== 'predict') return null;
  if (q.outcome !== null) return q.outcome;
  if (q.outcome_kind === 'crowd') return medians.get(`${q.game_id}:${q.i}`) ?? 'crowd';
  return 'pending';
}

/** An outcome the host still owes (hosting spec §3): the game waits in 'results' for it. */
const isPendingOutcome = (q: QuestionRow) =>
  q.kind === 'predict' && q.outcome_kind === 'pending' && q.outcome === null && !q.voided;

/** Every game of a community as the console lists it: series by series, in schedule order. */
export async function hostGames(db: Queryable, communityId: number, now: Date): Promise<HostGame[]> {
  const games = await db.query<GameRow>(
    `SELECT g.id::text AS uuid, s.endpoint AS series, g.key, COALESCE(g.name, s.name) AS name,
            g.open_at, g.standby_at, g.complete_at, (g.scored_at IS NOT NULL) AS scored,
            (SELECT count(*)::int FROM participations p WHERE p.game_id = g.id) AS participants
       FROM games g JOIN series s ON s.id = g.series_id
      WHERE s.community_id = $1 ORDER BY s.id, g.standby_at, g.key`,
    [communityId],
  );
  const questions = await db.query<QuestionRow>(
    `SELECT q.game_id::text AS game_id, q.i, q.kind, q.text, q.outcome_kind, q.outcome, q.voided,
            q.slider_min, q.slider_max, q.slider_step, q.slider_unit
       FROM questions q JOIN games g ON g.id = q.game_id JOIN series s ON s.id = g.series_id
      WHERE s.community_id = $1 ORDER BY q.game_id, q.i`,
    [communityId],
  );
  const medians = await crowdMedians(db, communityId);
  const byGame = new Map<string, HostGame['questions']>();
  const pending = new Map<string, number>();
  for (const q of questions.rows) {
    if (isPendingOutcome(q)) pending.set(q.game_id, (pending.get(q.game_id) ?? 0) + 1);
    const list = byGame.get(q.game_id) ?? [];
    list.push({
      i: q.i,
      kind: q.kind,
      text: q.text,
      outcome: outcomeOf(q, medians),
      slider:
        q.kind === 'predict'
          ? { min: q.slider_min!, max: q.slider_max!, step: q.slider_step!, unit: q.slider_unit ?? '' }
          : null,
      voided: q.voided,
    });
    byGame.set(q.game_id, list);
  }
  return games.rows.map((g) => {
    const schedule = {
      open: new Date(g.open_at).toISOString(),
      standby: new Date(g.standby_at).toISOString(),
      complete: new Date(g.complete_at).toISOString(),
    };
    return {
      series: g.series,
      key: g.key,
      uuid: g.uuid,
      name: g.name,
      state: gameStateAt(schedule, now, { scored: g.scored, pendingOutcomes: pending.get(g.uuid) ?? 0 }),
      locked: now.getTime() >= new Date(g.open_at).getTime(),
      schedule,
      participants: g.participants,
      questions: byGame.get(g.uuid) ?? [],
    };
  });
}

/** The community of a game, for the role check before anything else is told. */
export async function communityOfGame(
  db: Queryable,
  uuid: string,
): Promise<{ id: number; endpoint: string } | undefined> {
  const { rows } = await db.query<{ id: number; endpoint: string }>(
    `SELECT c.id, c.endpoint FROM games g JOIN series s ON s.id = g.series_id
       JOIN communities c ON c.id = s.community_id WHERE g.id = $1::uuid`,
    [uuid],
  );
  return rows[0];
}

/**
 * Deletes a game that has not opened (hosting spec §2), its questions and choices with it, in one
 * transaction with its audit record (the game as a season file writes it). The community's import
 * lock orders it against imports, which check their version under it (decision 034): an import that
 * had read the game never writes its questions after it is gone. False when it is already gone.
 */
export async function deleteGame(db: Db, uuid: string, actor: Actor, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const community = await communityOfGame(tx, uuid);
    if (!community) return false;
    await lockCommunityEndpoint(tx, community.endpoint);
    const { rows } = await tx.query<{
      open_at: Date;
      series: string;
      community_id: number;
      entries: boolean;
    }>(
      `SELECT g.open_at, s.endpoint AS series, s.community_id,
              EXISTS (SELECT 1 FROM participations p WHERE p.game_id = g.id) AS entries
         FROM games g JOIN series s ON s.id = g.series_id WHERE g.id = $1::uuid FOR UPDATE OF g`,
      [uuid],
    );
    const row = rows[0];
    if (!row) return false;
    const open = new Date(row.open_at);
    // Answers refer to an opened game's questions: it stays (its questions may be voided).
    if (now.getTime() >= open.getTime() || row.entries)
      throw new HttpError(
        409,
        `This game opened at ${isoTime(open)}: it can no longer be deleted (void its questions instead)`,
      );
    const game = (await loadStoredGame(tx, uuid))!;
    await tx.query('DELETE FROM games WHERE id = $1::uuid', [uuid]);
    await recordAudit(tx, actor, [
      {
        communityId: row.community_id,
        action: 'game.deleted',
        target: `${row.series}/${game.key}`,
        old: { uuid, ...seasonGame(game) },
      },
    ]);
    return true;
  });
}
