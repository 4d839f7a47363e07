import type { AnswerPayload, Game, LiveAnswer, Participation, QuestionItem } from '@hunch/contract';
import { questionsAskedBy } from '@hunch/rules';
import type { Db, Queryable } from '../platform/db/database';
import { HttpError } from '../platform/http/http-error';
import { liveScheduleOf, loadQuestionRows, toQuestionItem } from './question-queries';

/** The questions of a game as players see them: never the outcome or the linked vote. */
export async function loadQuestions(db: Queryable, gameId: string): Promise<QuestionItem[]> {
  return (await loadQuestionRows(db, gameId)).map(toQuestionItem);
}

interface EntryRow {
  id: number;
  rank: number | null;
  score: number | null;
  sub_endpoint: string | null;
  sub_name: string | null;
}

export async function findEntry(
  db: Queryable,
  gameId: string,
  userId: number,
): Promise<EntryRow | undefined> {
  const { rows } = await db.query<EntryRow>(
    `SELECT p.id, p.rank, p.score, c.endpoint AS sub_endpoint, c.name AS sub_name
       FROM participations p LEFT JOIN communities c ON c.id = p.subcommunity_id
      WHERE p.game_id = $1 AND p.user_id = $2`,
    [gameId, userId],
  );
  return rows[0];
}

/** A participation's answers, in question order (the entry page, a live player's resume). */
export async function answersOf(db: Queryable, participationId: number): Promise<LiveAnswer[]> {
  const { rows } = await db.query<LiveAnswer>(
    'SELECT question_i, choice_i, number_answer FROM answers WHERE participation_id = $1 ORDER BY question_i',
    [participationId],
  );
  return rows;
}

/**
 * A player's entry and answers. A live game's questions are listed only once asked: a player in
 * the lobby must not read the questions to come (the live game hands them out on its clock).
 */
export async function presentParticipation(
  db: Queryable,
  game: Pick<Game, 'uuid' | 'synchronous' | 'schedule'>,
  entry: EntryRow,
  now: Date,
): Promise<Participation> {
  const questionRows = await loadQuestionRows(db, game.uuid);
  const asked = game.synchronous
    ? questionsAskedBy(liveScheduleOf(Date.parse(game.schedule.standby), questionRows), now.getTime())
    : questionRows.length;
  const questions = questionRows.slice(0, asked).map(toQuestionItem);
  const answers: Participation['answers'] = {};
  for (const a of await answersOf(db, entry.id)) {
    const q = questions.find((x) => x.i === a.question_i);
    const choice = a.choice_i === null ? null : (q?.question.choices[a.choice_i]?.text ?? null);
    answers[String(a.question_i)] = { choice, choice_i: a.choice_i, number_answer: a.number_answer };
  }
  return {
    entry: {
      subcommunity: entry.sub_endpoint ? { endpoint: entry.sub_endpoint, name: entry.sub_name! } : null,
      rank: entry.rank,
      score: entry.score,
      questions,
    },
    answers,
  };
}

/**
 * Enters a player into an open game. Members of the game's community only; a game with
 * subcommunities needs one the player has joined, and the choice is locked after the first entry.
 */
export async function enterGame(
  db: Db,
  game: Game,
  userId: number,
  subcommunity: string | null,
): Promise<number> {
  if (game.state !== 'open') throw new HttpError(403, 'This game is not open for entries');
  const member = await db.query(
    `SELECT 1 FROM memberships m JOIN communities c ON c.id = m.community_id WHERE m.user_id = $1 AND c.endpoint = $2`,
    [userId, game.community.endpoint],
  );
  if (member.rows.length === 0) throw new HttpError(403, `Join ${game.community.name} to play this game`);
  const hasSubs = Object.keys(game.subcommunities).length > 0;
  if (hasSubs && !subcommunity) throw new HttpError(400, 'Choose the community you represent in this game');
  if (!hasSubs && subcommunity) throw new HttpError(400, 'This game has no participating communities');
  let subId: number | null = null;
  if (subcommunity) {
    const name = game.subcommunities[subcommunity];
    if (!name) throw new HttpError(400, `${subcommunity} is not participating in this game`);
    const joined = await db.query<{ id: number }>(
      `SELECT c.id FROM communities c JOIN memberships m ON m.community_id = c.id AND m.user_id = $1 WHERE c.endpoint = $2`,
      [userId, subcommunity],
    );
    if (!joined.rows[0]) throw new HttpError(403, `Join ${name} to represent it`);
    subId = joined.rows[0].id;
  }
  const existing = await findEntry(db, game.uuid, userId);
  if (existing) {
    if ((existing.sub_endpoint ?? null) !== (subcommunity ?? null) && subcommunity !== null) {
      throw new HttpError(409, `You already represent ${existing.sub_name ?? 'no community'} in this game`);
    }
    return existing.id;
  }
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO participations (game_id, user_id, subcommunity_id) VALUES ($1, $2, $3)
     ON CONFLICT (game_id, user_id) DO UPDATE SET game_id = EXCLUDED.game_id RETURNING id`,
    [game.uuid, userId, subId],
  );
  return rows[0]!.id;
}

const onStep = (x: number, min: number, step: number) => {
  const k = (x - min) / step;
  return Math.abs(k - Math.round(k)) < 1e-6;
};

/** Checks an answer against its question: a listed choice, or a number in range and on the step. */
export function validateAnswer(
  question: QuestionItem | undefined,
  answer: Pick<AnswerPayload, 'choice_i' | 'number_answer'>,
) {
  if (!question) throw new HttpError(400, 'This game has no such question');
  if (question.type === 'predict') {
    const s = question.question.slider!;
    if (answer.number_answer === null || answer.choice_i !== null) {
      throw new HttpError(400, 'Answer this question with a number');
    }
    const x = answer.number_answer;
    if (x < s.min || x > s.max || !onStep(x, s.min, s.step)) {
      throw new HttpError(400, `The number must be between ${s.min} and ${s.max} in steps of ${s.step}`);
    }
    return;
  }
  if (
    answer.choice_i === null ||
    answer.number_answer !== null ||
    answer.choice_i >= question.question.choices.length
  ) {
    throw new HttpError(400, 'Choose one of the answers');
  }
}

/** Stores (or replaces) one answer. */
export async function saveAnswer(
  db: Queryable,
  participationId: number,
  answer: AnswerPayload,
): Promise<void> {
  await db.query(
    `INSERT INTO answers (participation_id, question_i, choice_i, number_answer) VALUES ($1, $2, $3, $4)
     ON CONFLICT (participation_id, question_i)
     DO UPDATE SET choice_i = EXCLUDED.choice_i, number_answer = EXCLUDED.number_answer, answered_at = now()`,
    [participationId, answer.question_i, answer.choice_i, answer.number_answer],
  );
}
