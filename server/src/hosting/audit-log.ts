import type { AuditEntry } from '@hunch/contract';
import type { Queryable } from '../platform/db/database';

/** Who writes: a signed-in user, or the operator at the command line. */
export interface Actor {
  userId: number | null;
  name: string;
}

export const COMMAND_LINE: Actor = { userId: null, name: 'command line' };

export interface AuditRecord {
  communityId: number | null;
  action: string;
  target: string;
  old?: unknown;
  new?: unknown;
}

/** Records host writes, in the same transaction as the writes themselves. */
export async function recordAudit(tx: Queryable, actor: Actor, records: AuditRecord[]): Promise<void> {
  if (records.length === 0) return;
  await tx.query(
    `INSERT INTO audit_log (actor_id, actor, community_id, action, target, old_value, new_value)
     SELECT $1, $2, t.community, t.action, t.target, t.old::jsonb, t.new::jsonb
       FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[])
            WITH ORDINALITY AS t(community, action, target, old, new, n)
      ORDER BY t.n`,
    [
      actor.userId,
      actor.name,
      records.map((r) => r.communityId),
      records.map((r) => r.action),
      records.map((r) => r.target),
      records.map((r) => (r.old === undefined ? null : JSON.stringify(r.old))),
      records.map((r) => (r.new === undefined ? null : JSON.stringify(r.new))),
    ],
  );
}

export const AUDIT_PAGE = 100;

/** A community's audit log, newest first, a page at a time (`before`: the last id already read). */
export async function readAudit(
  db: Queryable,
  communityId: number,
  before: number | undefined,
): Promise<{ entries: AuditEntry[]; next: number | null }> {
  const { rows } = await db.query<{
    id: number;
    at: Date;
    actor: string;
    action: string;
    target: string;
    old_value: unknown;
    new_value: unknown;
  }>(
    `SELECT id, at, actor, action, target, old_value, new_value FROM audit_log
      WHERE community_id = $1 AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
    [communityId, before ?? null, AUDIT_PAGE + 1],
  );
  const page = rows.slice(0, AUDIT_PAGE);
  return {
    entries: page.map((r) => ({
      id: Number(r.id),
      at: new Date(r.at).toISOString(),
      who: r.actor,
      action: r.action,
      target: r.target,
      old: r.old_value ?? null,
      new: r.new_value ?? null,
    })),
    next: rows.length > AUDIT_PAGE ? Number(page[page.length - 1]!.id) : null,
  };
}

/** The signed-in user as the audit log names them. */
export async function actorFor(db: Queryable, userId: number): Promise<Actor> {
  const { rows } = await db.query<{ username: string }>('SELECT username FROM users WHERE id = $1', [userId]);
  return { userId, name: rows[0]?.username ?? `user ${userId}` };
}
