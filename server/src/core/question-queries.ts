import type { QuestionItem } from '@hunch/contract';
import type { LiveSchedule } from '@hunch/rules';
import type { Queryable } from '../platform/db/database';

/** A question as stored, with what scoring and statistics need (outcome, linked vote). */
export interface QuestionRow {
  i: number;
  kind: 'vote' | 'guess' | 'predict';
  text: string;
  image: string | null;
  slider_min: number | null;
  slider_max: number | null;
  slider_step: number | null;
  slider_unit: string | null;
  linked_vote_i: number | null;
  outcome: number | null;
  /** A predict's outcome: a number, the crowd median, or entered by a host after standby. */
  outcome_kind: 'number' | 'crowd' | 'pending' | null;
  /** A voided question scores 0 for everyone (hosting spec §3). */
  voided: boolean;
  secs_to_answer: number;
  choices: { text: string; image: string | null; i: number }[];
}

/** The one query for a game's questions, in order, with their choices. */
export async function loadQuestionRows(db: Queryable, gameId: string): Promise<QuestionRow[]> {
  const { rows } = await db.query<QuestionRow>(
    `SELECT q.i, q.kind, q.text, q.image, q.slider_min, q.slider_max, q.slider_step, q.slider_unit,
            q.linked_vote_i, q.outcome, q.outcome_kind, q.voided, q.secs_to_answer,
            COALESCE((SELECT json_agg(json_build_object('text', c.text, 'image', c.image, 'i', c.i) ORDER BY c.i)
                        FROM choices c WHERE c.question_id = q.id), '[]') AS choices
       FROM questions q WHERE q.game_id = $1 ORDER BY q.i`,
    [gameId],
  );
  return rows;
}

/** A question as players see it: never its outcome or linked vote. */
export function toQuestionItem(q: QuestionRow): QuestionItem {
  return {
    type: q.kind,
    i: q.i,
    question: {
      text: q.text,
      image: q.image,
      choices: q.choices,
      slider:
        q.kind === 'predict'
          ? { min: q.slider_min!, max: q.slider_max!, step: q.slider_step!, unit: q.slider_unit ?? '' }
          : null,
    },
    voided: q.voided,
  };
}

/** A live game's timeline: its start (schedule.standby, epoch ms) and its questions' lengths in order. */
export function liveScheduleOf(startAt: number, questions: readonly QuestionRow[]): LiveSchedule {
  return { startAt, secs: questions.map((q) => q.secs_to_answer) };
}
