import type { QuestionItem, QuestionStats } from '@hunch/contract';
import { formatCount, formatPercent } from './number-format';

interface ChoiceBarsProps {
  question: QuestionItem;
  stats: QuestionStats;
  /** A group filter is on: the marked favourite is still everyone's, which its tag says. */
  filtered: boolean;
  /** The choice the viewer picked, if they answered. */
  yours: string | null;
}

/**
 * A choice question's answers as one list of bars: each choice with its share and count, written
 * once (the bar is drawn from the same number), the truth and the viewer's own choice tagged in
 * words, so nothing depends on colour and a screen reader reads the same list.
 */
export function ChoiceBars({ question, stats, filtered, yours }: ChoiceBarsProps) {
  const correct = new Set(stats.correct_choices);
  const known = question.question.choices.map((c) => c.text);
  // Choices as the question lists them, then any the statistics name that the question does not.
  const names = [...known, ...Object.keys(stats.choices).filter((t) => !known.includes(t))];
  // A vote has no right answer (DESIGN §2): its winner is the crowd's favourite.
  const truthTag =
    question.type === 'vote' ? (filtered ? 'Overall favourite' : 'Crowd favourite') : 'The answer';
  return (
    <ul className="choice-bars">
      {names.map((name) => {
        const per = stats.choices[name]?.per ?? 0;
        const ct = stats.choices[name]?.ct ?? 0;
        const isTruth = correct.has(name);
        const isYours = name === yours;
        const cls = ['choice-bar', isTruth ? 'is-truth' : '', isYours ? 'is-yours' : '']
          .filter(Boolean)
          .join(' ');
        return (
          <li key={name} className={cls}>
            <div className="choice-bar-head">
              <span className="choice-bar-name">{name}</span>
              {isTruth && <span className="answer-tag answer-tag-truth">{truthTag}</span>}
              {isYours && <span className="answer-tag answer-tag-yours">Your answer</span>}
              <span className="choice-bar-value">
                {formatPercent(per)} <span className="choice-bar-count">({formatCount(ct)})</span>
              </span>
            </div>
            <div className="choice-bar-track" aria-hidden="true">
              <div className="choice-bar-fill" style={{ width: `${Math.min(100, Math.max(0, per))}%` }} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
