import type { MyAnswer, QuestionItem, QuestionStats } from '@hunch/contract';
import { formatPoints } from './number-format';
import { answerText, truthText, verdictOf } from './verdict';

function pointsText(question: QuestionItem, mine: MyAnswer | undefined): string {
  if (question.voided) return `${formatPoints(0)} (voided)`;
  if (question.type === 'vote') return `${formatPoints(0)}: votes are not scored`;
  return formatPoints(mine?.points ?? 0);
}

/**
 * A question's outcome in plain words: 'Your answer' (when the viewer played), 'The answer' (a
 * vote's 'Crowd favourite'), right or wrong by the viewer's own answer, and the points it gave.
 */
export function AnswerFacts({
  question,
  stats,
  mine,
  played,
}: {
  question: QuestionItem;
  stats: QuestionStats;
  mine: MyAnswer | undefined;
  /** The viewer has a result in this game (so a missing answer is theirs to see). */
  played: boolean;
}) {
  const truth = truthText(question, stats);
  const yours = answerText(question, mine);
  const verdict = verdictOf(question, stats, mine);
  // The breakdown shows complete games only: no answer is still to come. A guess's answer is the
  // crowd's pick (of the vote it is linked to, perhaps one nobody answered even if this was).
  const noTruth =
    question.type === 'predict'
      ? 'Not announced yet'
      : question.type === 'vote'
        ? 'Nobody answered'
        : 'No crowd pick';
  return (
    <dl className="answer-facts">
      {played && (
        <div className="answer-fact answer-fact-yours">
          <dt>Your answer</dt>
          <dd>
            <span className="answer-fact-value">{yours ?? 'You did not answer'}</span>
            {verdict && <span className={`verdict verdict-${verdict.kind}`}>{verdict.text}</span>}
          </dd>
        </div>
      )}
      <div className="answer-fact">
        <dt>{question.type === 'vote' ? 'Crowd favourite' : 'The answer'}</dt>
        <dd>
          <span className="answer-fact-value">{truth ?? noTruth}</span>
        </dd>
      </div>
      {played && (
        <div className="answer-fact">
          <dt>Points</dt>
          <dd>
            <span className="answer-fact-value">{pointsText(question, mine)}</span>
          </dd>
        </div>
      )}
    </dl>
  );
}
