import type { HostOutcome } from '@hunch/contract';
import type { Db, Queryable } from '../platform/db/database';
import { HttpError } from '../platform/http/http-error';
import { type Actor, recordAudit } from './audit-log';
import { isoTime } from './season-convert';
import { lockCommunityEndpoint } from './season-queries';

/** What re-scores a scored game inside a transaction: composed in app.ts (scoring, statistics). */
export type Rescore = (tx: Queryable, gameId: string) => Promise<void>;

interface Target {
  community: string;
  community_id: number;
  series: string;
  key: string;
  standby_at: Date;
  kind: 'vote' | 'guess' | 'predict';
  outcome_kind: 'number' | 'crowd' | 'pending' | null;
  slider_min: number | null;
  slider_max: number | null;
}

/** The question a host acts on, with its game's community (for the role check) and schedule. */
export async function outcomeTarget(db: Queryable, uuid: string, i: number): Promise<Target | undefined> {
  const { rows } = await db.query<Target>(
    `SELECT c.endpoint AS community, c.id AS community_id, s.endpoint AS series, g.key, g.standby_at,
            q.kind, q.outcome_kind, q.slider_min, q.slider_max
       FROM questions q JOIN games g ON g.id = q.game_id JOIN series s ON s.id = g.series_id
       JOIN communities c ON c.id = s.community_id
      WHERE q.game_id = $1 AND q.i = $2`,
    [uuid, i],
  );
  return rows[0];
}

/** Refuses what no outcome call may do (hosting spec §5): 409 before standby, 400 a bad value. */
export function checkOutcome(target: Target, i: number, change: HostOutcome, now: Date): void {
  if (now.getTime() < new Date(target.standby_at).getTime())
    throw new HttpError(
      409,
      `Outcomes are entered once answers have closed, at ${isoTime(new Date(target.standby_at))}`,
    );
  if (!('outcome' in change)) return;
  if (target.kind !== 'predict')
    throw new HttpError(
      400,
      `Question ${i + 1} is a ${target.kind}: only a predict has an outcome (any may be voided)`,
    );
  if (target.outcome_kind === 'crowd')
    throw new HttpError(
      400,
      `The outcome of question ${i + 1} is the median of the answers: void it instead`,
    );
  const [min, max] = [target.slider_min!, target.slider_max!];
  if (!Number.isFinite(change.outcome) || change.outcome < min || change.outcome > max)
    throw new HttpError(400, `The outcome must lie on the slider, from ${min} to ${max}`);
}

/**
 * Refuses, inside the transaction, a change that would leave a scored game with an outcome to
 * enter: restoring a voided pending question never entered. Re-scoring could only guess its truth,
 * and the game would show 'complete' while the console asks for the outcome; entering it stays
 * possible while the question is voided, then restoring it re-scores with it.
 */
async function refuseOwedOutcome(tx: Queryable, uuid: string, i: number): Promise<void> {
  const { rows } = await tx.query<{ i: number }>(
    `SELECT i FROM questions
      WHERE game_id = $1 AND outcome_kind = 'pending' AND outcome IS NULL AND NOT voided ORDER BY i LIMIT 1`,
    [uuid],
  );
  const owed = rows[0]?.i;
  if (owed === undefined) return;
  throw new HttpError(
    400,
    owed === i
      ? `Question ${i + 1} has no outcome yet: enter it first, then restore the question`
      : `Question ${owed + 1} has no outcome yet: enter it first`,
  );
}

/**
 * Enters, corrects or voids in one transaction with its audit record; a game already scored is
 * scored again in the same transaction. The game's row lock orders this against the clock's
 * scoring claim and against other hosts' calls, so a game is scored once, then re-scored in turn.
 * A game still waiting is scored by the clock once nothing is pending (decision 004's claim).
 * Returns whether anything changed.
 */
export async function applyOutcome(
  db: Db,
  uuid: string,
  i: number,
  target: Target,
  change: HostOutcome,
  actor: Actor,
  rescore: Rescore,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    // The outcome is part of the community's season document: an import that has checked its
    // version (decision 034) finishes first, so it cannot write back the outcome this replaces.
    await lockCommunityEndpoint(tx, target.community);
    const game = await tx.query<{ scored: boolean }>(
      'SELECT (scored_at IS NOT NULL) AS scored FROM games WHERE id = $1 FOR UPDATE',
      [uuid],
    );
    const before = (
      await tx.query<{ outcome: number | null; voided: boolean }>(
        'SELECT outcome, voided FROM questions WHERE game_id = $1 AND i = $2',
        [uuid, i],
      )
    ).rows[0]!;
    const after =
      'outcome' in change ? { ...before, outcome: change.outcome } : { ...before, voided: change.void };
    if (after.outcome === before.outcome && after.voided === before.voided) return false;
    // The host corrected a value that is no longer there: refused, not written over unseen.
    if ('outcome' in change && change.was !== undefined && change.was !== before.outcome)
      throw new HttpError(
        409,
        `The outcome of question ${i + 1} was changed meanwhile (it is now ${before.outcome ?? 'not entered'}): check it, then enter yours again`,
      );
    await tx.query('UPDATE questions SET outcome = $3, voided = $4 WHERE game_id = $1 AND i = $2', [
      uuid,
      i,
      after.outcome,
      after.voided,
    ]);
    const action =
      'outcome' in change
        ? before.outcome === null
          ? 'outcome.entered'
          : 'outcome.corrected'
        : change.void
          ? 'question.voided'
          : 'question.restored';
    await recordAudit(tx, actor, [
      {
        communityId: target.community_id,
        action,
        target: `${target.series}/${target.key} question ${i + 1}`,
        old: before,
        new: after,
      },
    ]);
    if (game.rows[0]!.scored) {
      // Thrown before anything commits: the update and its audit record roll back with it.
      await refuseOwedOutcome(tx, uuid, i);
      await rescore(tx, uuid);
    }
    return true;
  });
}
