import { randomUUID } from 'node:crypto';
import { type GameInput, gameInputSchema } from '@hunch/contract';
import { liveEndsAt } from '@hunch/rules';
import type { Queryable } from '../platform/db/database';

export interface CommunityInput {
  endpoint: string;
  name: string;
  image?: string;
  description?: string;
  kind?: 'public' | 'geo';
  /** Category names with their group (null group: 'Community Categories'). */
  categories?: { group: string | null; name: string }[];
}

async function categoryId(
  db: Queryable,
  group: string | null,
  name: string,
  position: number,
): Promise<number> {
  const existing = await db.query<{ id: number }>('SELECT id FROM categories WHERE name = $1', [name]);
  if (existing.rows[0]) return existing.rows[0].id;
  let groupRow = (
    await db.query<{ id: number }>('SELECT id FROM category_groups WHERE name IS NOT DISTINCT FROM $1', [
      group,
    ])
  ).rows[0];
  if (!groupRow) {
    const pos = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM category_groups');
    groupRow = (
      await db.query<{ id: number }>(
        'INSERT INTO category_groups (name, position) VALUES ($1, $2) RETURNING id',
        [group, pos.rows[0]!.n],
      )
    ).rows[0]!;
  }
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO categories (group_id, name, position) VALUES ($1, $2, $3) RETURNING id',
    [groupRow.id, name, position],
  );
  return rows[0]!.id;
}

export async function createCommunity(db: Queryable, input: CommunityInput): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO communities (endpoint, name, image, description, kind) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [input.endpoint, input.name, input.image ?? '_.jpg', input.description ?? '', input.kind ?? 'public'],
  );
  const id = rows[0]!.id;
  for (const [i, c] of (input.categories ?? []).entries()) {
    const cat = await categoryId(db, c.group, c.name, i);
    await db.query(
      'INSERT INTO community_categories (community_id, category_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [id, cat],
    );
  }
  return id;
}

export async function createSeries(
  db: Queryable,
  input: { communityId: number; endpoint: string; name: string; image?: string; description?: string },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO series (community_id, endpoint, name, image, description) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [input.communityId, input.endpoint, input.name, input.image ?? '_.jpg', input.description ?? ''],
  );
  return rows[0]!.id;
}

/** Creates a game with its questions and choices; the input is validated by the contract schema. */
export async function createGame(db: Queryable, seriesId: number, input: GameInput): Promise<string> {
  const game = gameInputSchema.parse(input);
  if (game.synchronous) {
    // Scoring runs at the complete time: a live game must be over by then, or its last answers
    // would be stored and never counted.
    const endsAt = liveEndsAt({
      startAt: game.schedule.standby.getTime(),
      secs: game.questions.map((q) => q.secs_to_answer),
    });
    if (game.schedule.complete.getTime() < endsAt) {
      throw new Error(
        `A live game must complete after its live part ends (${new Date(endsAt).toISOString()} or later)`,
      );
    }
  }
  const id = randomUUID();
  await db.query(
    `INSERT INTO games (id, series_id, name, image, open_at, standby_at, complete_at, synchronous, speed_bonus)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      id,
      seriesId,
      game.name ?? null,
      game.image ?? null,
      game.schedule.open,
      game.schedule.standby,
      game.schedule.complete,
      game.synchronous,
      game.speed_bonus,
    ],
  );
  for (const endpoint of game.subcommunities) {
    await db.query(
      'INSERT INTO game_subcommunities (game_id, community_id) SELECT $1, id FROM communities WHERE endpoint = $2',
      [id, endpoint],
    );
  }
  for (const [i, q] of game.questions.entries()) {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO questions (game_id, i, kind, text, image, slider_min, slider_max, slider_step, slider_unit,
                              linked_vote_i, outcome, secs_to_answer)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
      [
        id,
        i,
        q.kind,
        q.text,
        q.image ?? null,
        q.slider?.min ?? null,
        q.slider?.max ?? null,
        q.slider?.step ?? null,
        q.slider?.unit ?? null,
        q.linked_vote_i ?? null,
        q.outcome ?? null,
        q.secs_to_answer,
      ],
    );
    for (const [ci, c] of q.choices.entries()) {
      await db.query('INSERT INTO choices (question_id, i, text, image) VALUES ($1, $2, $3, $4)', [
        rows[0]!.id,
        ci,
        c.text,
        c.image ?? null,
      ]);
    }
  }
  return id;
}
