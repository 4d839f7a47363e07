import type { AnswerPayload, Game, LiveAnswer, Participation, QuestionItem } from '@hunch/contract';
import { questionsAskedBy } from '@hunch/rules';
import type { Queryable } from '../platform/db/database';
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
 * Enters a player into an open game (again: their entry, unchanged). Members of the game's
 * community only; a game with subcommunities needs one the player has joined, and the choice is
 * locked after the first entry.
 */
export async function enterGame(
  db: Queryable,
  game: Game,
  userId: number,
  subcommunity: string | null,
): Promise<number> {
  if (game.state !== 'open') throw new HttpError(403, 'This game is not open for entries');
  const communityId = await memberOf(db, userId, game.community.endpoint);
  if (communityId === null) throw notMember(game);
  const hasSubs = Object.keys(game.subcommunities).length > 0;
  if (hasSubs && !subcommunity) throw new HttpError(400, 'Choose the community you represent in this game');
  if (!hasSubs && subcommunity) throw new HttpError(400, 'This game has no participating communities');
  let subId: number | null = null;
  if (subcommunity) {
    // Its own keys only: 'constructor' or '__proto__' names no community of the game.
    const name = Object.hasOwn(game.subcommunities, subcommunity)
      ? game.subcommunities[subcommunity]
      : undefined;
    if (!name) throw new HttpError(400, `${subcommunity} is not participating in this game`);
    subId = await memberOf(db, userId, subcommunity);
    if (subId === null) throw new HttpError(403, `Join ${name} to represent it`);
  }
  const existing = await findEntry(db, game.uuid, userId);
  if (existing && (existing.sub_endpoint ?? null) !== (subcommunity ?? null) && subcommunity !== null) {
    throw new HttpError(409, `You already represent ${existing.sub_name ?? 'no community'} in this game`);
  }
  // Written only while the memberships still stand, in the same statement: a leave committed since
  // the checks above must not leave an entry behind in a community the player is no longer in.
  // FOR KEY SHARE waits for a leave under way (PostgreSQL) and then sees the membership gone.
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO participations (game_id, user_id, subcommunity_id)
     SELECT $1::uuid, $2::int, $4::int
      WHERE EXISTS (SELECT 1 FROM memberships WHERE user_id = $2 AND community_id = $3 FOR KEY SHARE)
        AND ($4::int IS NULL OR EXISTS (
              SELECT 1 FROM memberships WHERE user_id = $2 AND community_id = $4::int FOR KEY SHARE))
     ON CONFLICT (game_id, user_id) DO UPDATE SET game_id = EXCLUDED.game_id RETURNING id`,
    [game.uuid, userId, communityId, subId],
  );
  if (!rows[0]) throw notMember(game);
  return rows[0].id;
}

/** The refusal of a player who is not (or no longer) a member of a game's community. */
export const notMember = (game: Pick<Game, 'community'>) =>
  new HttpError(403, `Join ${game.community.name} to play this game`);

/** The community's id when the player is a member of it. */
async function memberOf(db: Queryable, userId: number, endpoint: string): Promise<number | null> {
  const { rows } = await db.query<{ id: number }>(
    'SELECT c.id FROM communities c JOIN memberships m ON m.community_id = c.id AND m.user_id = $1 WHERE c.endpoint = $2',
    [userId, endpoint],
  );
  return rows[0]?.id ?? null;
}

/** x on the slider's step (within a millionth of one, for decimal steps), else null. */
const onStep = (x: number, min: number, step: number): number | null => {
  const k = Math.round((x - min) / step);
  if (Math.abs((x - min) / step - k) >= 1e-6) return null;
  return Number((min + k * step).toFixed(6));
};

/**
 * Checks an answer against its question: a listed choice, or a number in range and on the step.
 * Returns it as it is stored: a number within a millionth of a step of one is that step exactly.
 */
export function validateAnswer<A extends Pick<AnswerPayload, 'choice_i' | 'number_answer'>>(
  question: QuestionItem | undefined,
  answer: A,
): A {
  if (!question) throw new HttpError(400, 'This game has no such question');
  if (question.type === 'predict') {
    const s = question.question.slider!;
    if (answer.number_answer === null || answer.choice_i !== null) {
      throw new HttpError(400, 'Answer this question with a number');
    }
    const x = answer.number_answer;
    const stepped = x < s.min || x > s.max ? null : onStep(x, s.min, s.step);
    if (stepped === null) {
      throw new HttpError(400, `The number must be between ${s.min} and ${s.max} in steps of ${s.step}`);
    }
    return stepped === x ? answer : { ...answer, number_answer: stepped };
  }
  if (
    answer.choice_i === null ||
    answer.number_answer !== null ||
    answer.choice_i >= question.question.choices.length
  ) {
    throw new HttpError(400, 'Choose one of the answers');
  }
  return answer;
}

/**
 * Stores (or replaces) one answer, if its participation still exists: false when it is gone (the
 * player left the community since their entry was read), rather than a foreign-key error.
 */
export async function saveAnswer(
  db: Queryable,
  participationId: number,
  answer: AnswerPayload,
): Promise<boolean> {
  // FOR KEY SHARE waits for a leave under way (PostgreSQL) and then sees the entry gone; a plain
  // EXISTS would see it still there and the insert would fail the foreign key.
  const { rows } = await db.query(
    `INSERT INTO answers (participation_id, question_i, choice_i, number_answer)
     SELECT $1::int, $2::int, $3::int, $4::float8
      WHERE EXISTS (SELECT 1 FROM participations WHERE id = $1 FOR KEY SHARE)
     ON CONFLICT (participation_id, question_i)
     DO UPDATE SET choice_i = EXCLUDED.choice_i, number_answer = EXCLUDED.number_answer, answered_at = now()
     RETURNING 1`,
    [participationId, answer.question_i, answer.choice_i, answer.number_answer],
  );
  return rows.length > 0;
}
