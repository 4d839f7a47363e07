import { randomUUID } from 'node:crypto';
import type { Queryable } from '../platform/db/database';

export type OutcomeKind = 'number' | 'crowd' | 'pending';

/** A question as the tables hold it: what authoring, season import and export all speak. */
export interface StoredQuestion {
  kind: 'vote' | 'guess' | 'predict';
  text: string;
  image: string | null;
  choices: { text: string; image: string | null }[];
  slider: { min: number; max: number; step: number; unit: string } | null;
  /** 0-based, as stored; season files write it 1-based. */
  linked_vote_i: number | null;
  outcome_kind: OutcomeKind | null;
  /** A 'number' outcome, or a 'pending' one once a host entered it. */
  outcome: number | null;
  secs_to_answer: number;
  /** As stored; from a file, undefined when the file does not say (a void then stays as it is). */
  voided?: boolean;
}

export interface StoredGame {
  key: string;
  name: string | null;
  image: string | null;
  open: Date;
  standby: Date;
  complete: Date;
  synchronous: boolean;
  speed_bonus: boolean;
  /** Endpoints, sorted. */
  subcommunities: string[];
  questions: StoredQuestion[];
}

/** A stored game with its identity and whether it was scored. */
export interface ExistingGame extends StoredGame {
  uuid: string;
  seriesId: number;
  scored: boolean;
}

export async function insertQuestions(db: Queryable, gameId: string, questions: StoredQuestion[]) {
  for (const [i, q] of questions.entries()) {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO questions (game_id, i, kind, text, image, slider_min, slider_max, slider_step, slider_unit,
                              linked_vote_i, outcome_kind, outcome, secs_to_answer, voided)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
      [
        gameId,
        i,
        q.kind,
        q.text,
        q.image,
        q.slider?.min ?? null,
        q.slider?.max ?? null,
        q.slider?.step ?? null,
        q.slider?.unit ?? null,
        q.linked_vote_i,
        q.outcome_kind,
        q.outcome,
        q.secs_to_answer,
        q.voided ?? false,
      ],
    );
    if (q.choices.length === 0) continue;
    await db.query(
      `INSERT INTO choices (question_id, i, text, image)
       SELECT $1, t.i, t.text, t.image FROM unnest($2::int[], $3::text[], $4::text[]) AS t(i, text, image)`,
      [
        rows[0]!.id,
        q.choices.map((_, ci) => ci),
        q.choices.map((c) => c.text),
        q.choices.map((c) => c.image),
      ],
    );
  }
}

async function insertSubcommunities(db: Queryable, gameId: string, endpoints: string[]) {
  if (endpoints.length === 0) return;
  await db.query(
    `INSERT INTO game_subcommunities (game_id, community_id)
     SELECT $1, id FROM communities WHERE endpoint = ANY($2::text[])`,
    [gameId, endpoints],
  );
}

/** A game to insert: without a key, its uuid becomes its key. */
export type NewGame = Omit<StoredGame, 'key'> & { key?: string };

/** Inserts a game with its questions and choices; returns its new uuid. */
export async function insertGame(db: Queryable, seriesId: number, game: NewGame): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO games (id, series_id, key, name, image, open_at, standby_at, complete_at, synchronous, speed_bonus)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      id,
      seriesId,
      game.key ?? id,
      game.name,
      game.image,
      game.open,
      game.standby,
      game.complete,
      game.synchronous,
      game.speed_bonus,
    ],
  );
  await insertSubcommunities(db, id, game.subcommunities);
  await insertQuestions(db, id, game.questions);
  return id;
}

/**
 * Rewrites a game in place (its uuid stays). Questions are replaced only when `questions` says so:
 * the caller has checked that no answer refers to them (the game has not opened).
 */
export async function updateGame(
  db: Queryable,
  uuid: string,
  game: StoredGame,
  { questions }: { questions: boolean },
): Promise<void> {
  await db.query(
    `UPDATE games SET name = $2, image = $3, open_at = $4, standby_at = $5, complete_at = $6,
                      synchronous = $7, speed_bonus = $8
      WHERE id = $1`,
    [uuid, game.name, game.image, game.open, game.standby, game.complete, game.synchronous, game.speed_bonus],
  );
  await db.query('DELETE FROM game_subcommunities WHERE game_id = $1', [uuid]);
  await insertSubcommunities(db, uuid, game.subcommunities);
  if (questions) {
    await db.query('DELETE FROM questions WHERE game_id = $1', [uuid]);
    await insertQuestions(db, uuid, game.questions);
  }
}

interface GameRow {
  uuid: string;
  series_id: number;
  key: string;
  name: string | null;
  image: string | null;
  open_at: Date;
  standby_at: Date;
  complete_at: Date;
  synchronous: boolean;
  speed_bonus: boolean;
  scored: boolean;
  subcommunities: string[] | null;
}

interface QuestionRow {
  game_id: string;
  kind: StoredQuestion['kind'];
  text: string;
  image: string | null;
  slider_min: number | null;
  slider_max: number | null;
  slider_step: number | null;
  slider_unit: string | null;
  linked_vote_i: number | null;
  outcome_kind: OutcomeKind | null;
  outcome: number | null;
  secs_to_answer: number;
  voided: boolean;
  choices: { text: string; image: string | null }[];
}

/** Every game of the given series, with questions and choices, in schedule order. */
export async function loadGamesOfSeries(db: Queryable, seriesIds: number[]): Promise<ExistingGame[]> {
  if (seriesIds.length === 0) return [];
  return loadStoredGames(db, 'g.series_id = ANY($1::int[])', [seriesIds]);
}

/** One game, with questions and choices (what the audit log records of a deleted game). */
export async function loadStoredGame(db: Queryable, uuid: string): Promise<ExistingGame | undefined> {
  return (await loadStoredGames(db, 'g.id = $1::uuid', [uuid]))[0];
}

async function loadStoredGames(db: Queryable, where: string, params: unknown[]): Promise<ExistingGame[]> {
  const games = await db.query<GameRow>(
    `SELECT g.id::text AS uuid, g.series_id, g.key, g.name, g.image, g.open_at, g.standby_at, g.complete_at,
            g.synchronous, g.speed_bonus, (g.scored_at IS NOT NULL) AS scored,
            (SELECT array_agg(c.endpoint ORDER BY c.endpoint) FROM game_subcommunities gs
               JOIN communities c ON c.id = gs.community_id WHERE gs.game_id = g.id) AS subcommunities
       FROM games g WHERE ${where} ORDER BY g.standby_at, g.key`,
    params,
  );
  const questions = await db.query<QuestionRow>(
    `SELECT q.game_id::text AS game_id, q.kind, q.text, q.image, q.slider_min, q.slider_max, q.slider_step,
            q.slider_unit, q.linked_vote_i, q.outcome_kind, q.outcome, q.secs_to_answer, q.voided,
            COALESCE((SELECT json_agg(json_build_object('text', c.text, 'image', c.image) ORDER BY c.i)
                        FROM choices c WHERE c.question_id = q.id), '[]') AS choices
       FROM questions q JOIN games g ON g.id = q.game_id
      WHERE ${where} ORDER BY q.game_id, q.i`,
    params,
  );
  const byGame = new Map<string, StoredQuestion[]>();
  for (const q of questions.rows) {
    const list = byGame.get(q.game_id) ?? [];
    list.push({
      kind: q.kind,
      text: q.text,
      image: q.image,
      choices: q.choices,
      slider:
        q.kind === 'predict'
          ? { min: q.slider_min!, max: q.slider_max!, step: q.slider_step!, unit: q.slider_unit ?? '' }
          : null,
      linked_vote_i: q.linked_vote_i,
      outcome_kind: q.outcome_kind,
      outcome: q.outcome,
      secs_to_answer: q.secs_to_answer,
      voided: q.voided,
    });
    byGame.set(q.game_id, list);
  }
  return games.rows.map((g) => ({
    uuid: g.uuid,
    seriesId: g.series_id,
    key: g.key,
    name: g.name,
    image: g.image,
    open: new Date(g.open_at),
    standby: new Date(g.standby_at),
    complete: new Date(g.complete_at),
    synchronous: g.synchronous,
    speed_bonus: g.speed_bonus,
    scored: g.scored,
    subcommunities: g.subcommunities ?? [],
    questions: byGame.get(g.uuid) ?? [],
  }));
}
