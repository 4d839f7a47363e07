import type { Queryable } from '../platform/db/database';
import { type Actor, type AuditRecord, recordAudit } from './audit-log';
import {
  categoryId,
  createCommunity,
  createSeries,
  setCommunityCategories,
  updateCommunity,
  updateSeries,
} from './authoring';
import { insertGame, updateGame } from './game-store';
import { seasonGame } from './season-convert';
import type { SeasonPlan } from './season-plan';

/** A game of the file and its uuid, as the import answers. */
export interface PlacedGame {
  series: string;
  key: string;
  uuid: string | null;
}

const withoutId = <T extends { id: number }>({ id: _id, ...fields }: T) => fields;

const communityValue = (c: SeasonPlan['community']['next']) => ({
  ...c,
  categories: [...c.categories].sort(),
});

/**
 * Writes a plan inside the caller's transaction, with an audit record for every community, series
 * and game it creates or changes. Returns every game of the file with its uuid.
 */
export async function applyPlan(tx: Queryable, plan: SeasonPlan, actor: Actor): Promise<PlacedGame[]> {
  const audit: AuditRecord[] = [];
  for (const [i, c] of plan.newCategories.entries()) await categoryId(tx, c.group, c.name, i);

  const { community } = plan;
  let communityId: number;
  if (community.action === 'create') {
    communityId = await createCommunity(tx, { ...community.next, categories: [] });
    await setCommunityCategories(tx, communityId, community.next.categories);
    audit.push({
      communityId,
      action: 'community.created',
      target: community.next.endpoint,
      new: communityValue(community.next),
    });
  } else {
    const old = community.old!;
    communityId = old.id;
    if (community.action === 'update') {
      await updateCommunity(tx, communityId, community.next);
      await setCommunityCategories(tx, communityId, community.next.categories);
      audit.push({
        communityId,
        action: 'community.updated',
        target: old.endpoint,
        // The stored row's id is no field of the document: the entry compares like with like.
        old: communityValue({ ...withoutId(old), categories: old.categories.map((x) => x.name) }),
        new: communityValue(community.next),
      });
    }
  }

  // A game moving to a time another game of its series leaves would collide with it on the way
  // (one game per standby time in a series): moved games first step aside to times of their own,
  // which no other process sees, since this transaction commits them with their final values.
  let aside = 0;
  for (const s of plan.series) {
    for (const g of s.games) {
      if (g.old && g.old.standby.getTime() !== g.next.standby.getTime()) {
        const t = new Date(Date.UTC(1970, 0, 1) + ++aside);
        await tx.query('UPDATE games SET open_at = $2, standby_at = $2, complete_at = $2 WHERE id = $1', [
          g.old.uuid,
          t,
        ]);
      }
    }
  }

  const placed: PlacedGame[] = [];
  for (const s of plan.series) {
    let seriesId: number;
    if (s.action === 'create') {
      seriesId = await createSeries(tx, { communityId, ...s.next });
      audit.push({ communityId, action: 'series.created', target: s.endpoint, new: s.next });
    } else {
      seriesId = s.old!.id;
      if (s.action === 'update') {
        await updateSeries(tx, seriesId, s.next);
        const { id: _id, ...old } = s.old!;
        audit.push({ communityId, action: 'series.updated', target: s.endpoint, old, new: s.next });
      }
    }
    for (const g of s.games) {
      const target = `${s.endpoint}/${g.next.key}`;
      if (g.action === 'create') {
        const uuid = await insertGame(tx, seriesId, g.next);
        placed.push({ series: s.endpoint, key: g.next.key, uuid });
        audit.push({ communityId, action: 'game.created', target, new: { uuid, ...seasonGame(g.next) } });
        continue;
      }
      const old = g.old!;
      placed.push({ series: s.endpoint, key: g.next.key, uuid: old.uuid });
      if (g.action === 'update') {
        await updateGame(tx, old.uuid, g.next, { questions: g.replaceQuestions });
        audit.push({
          communityId,
          action: 'game.updated',
          target,
          old: { uuid: old.uuid, ...seasonGame(old) },
          // Questions not replaced stay as stored (a void or an entered outcome the file leaves out).
          new: {
            uuid: old.uuid,
            ...seasonGame(g.replaceQuestions ? g.next : { ...g.next, questions: old.questions }),
          },
        });
      }
    }
  }
  await recordAudit(tx, actor, audit);
  return placed;
}
