import type { Game, LiveAnswer, LiveQuestionEvent, QuestionResultEvent } from '@hunch/contract';
import { useRef } from 'react';
import { numberText, VOIDED_NOTE } from '../../shared/question-text';

// What a player sees once a live question has closed: the answer (the crowd's split for a vote,
// the top choice for a guess, the truth for a predict), their points, running score and rank.

const count = new Intl.NumberFormat('en-US');
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 0 });

const choiceName = (q: LiveQuestionEvent, i: number) => q.question.choices[i]?.text ?? `Choice ${i + 1}`;

/** 'Red', 'Red and Blue', 'Red, Green and Blue'. */
function listOf(names: string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The answer as a label and a value ('The answer' · 'Red'), or a sentence when there is none yet. */
export function answerOf(
  question: LiveQuestionEvent | null,
  r: QuestionResultEvent,
): { label: string; value: string } | { note: string } {
  if (r.voided) return { note: VOIDED_NOTE };
  if (r.later) {
    if (r.type === 'predict') return { note: 'The answer comes later, once the outcome is known.' };
    if (r.type === 'vote') return { note: 'How the crowd voted is revealed after a later question.' };
    return { note: 'The answer comes after a later question.' };
  }
  if (r.type === 'predict') {
    if (r.truth === null) return { note: 'Nobody answered this one.' };
    return { label: 'The answer', value: numberText(r.truth, question?.question.slider?.unit) };
  }
  if (r.top_choices.length === 0) return { note: 'Nobody answered this one.' };
  const names = question ? listOf(r.top_choices.map((i) => choiceName(question, i))) : '';
  return { label: r.type === 'vote' ? 'The crowd’s favourite' : 'The answer', value: names };
}

const pointsText = (points: number) => `${count.format(points)} ${points === 1 ? 'point' : 'points'}`;

/**
 * The verdict beside the player's own answer once a question closed: before its result the answer
 * is locked in; after it, a guess is right when it is a top choice; a miss that still scored (a
 * share of the top answer's points) is partly right, as on the breakdown, never "not the top answer"
 * beside its points. Votes, predicts, voided questions and answers shown later get no verdict here.
 */
export function liveVerdict(
  result: QuestionResultEvent | null,
  stored: LiveAnswer | undefined,
): 'locked' | 'right' | 'partly' | 'wrong' | 'none' {
  if (!result) return 'locked';
  if (result.type !== 'guess' || result.later || result.voided || stored?.choice_i == null) return 'none';
  if (result.top_choices.includes(stored.choice_i)) return 'right';
  return (result.you?.points ?? 0) > 0 ? 'partly' : 'wrong';
}

/** Score and rank of N, as read out. */
export function standingText(r: QuestionResultEvent, final: boolean): string {
  if (!r.you) return '';
  const score = `${final ? 'Final score' : 'Your score'}: ${count.format(r.you.score)}`;
  return `${score}, rank ${count.format(r.you.rank)} of ${count.format(r.players)}.`;
}

/** What the polite live region says when a result arrives. */
export function resultAnnouncement(question: LiveQuestionEvent | null, r: QuestionResultEvent): string {
  const answer = answerOf(question, r);
  const parts = [`Question ${r.i + 1} result.`];
  parts.push('note' in answer ? answer.note : `${answer.label}: ${answer.value}.`);
  if (r.you) {
    parts.push(
      r.you.points === null ? 'Your points for it come later.' : `You got ${pointsText(r.you.points)}.`,
    );
    parts.push(standingText(r, false));
  }
  return parts.join(' ');
}

/** The crowd's split: a bar per choice, with its count and share (the player's own marked). */
function SplitBars({
  question,
  result,
  mine,
}: {
  question: LiveQuestionEvent;
  result: QuestionResultEvent;
  mine: number | null;
}) {
  const split = result.split;
  if (!split) return null;
  const total = split.counts.reduce((a, b) => a + b, 0);
  const [one, many] = split.of === 'votes' ? ['vote', 'votes'] : ['guess', 'guesses'];
  return (
    <div className="live-split">
      <p className="live-split-title">
        {split.of === 'votes' ? 'How the crowd voted' : 'How everyone guessed'}
      </p>
      <ul className="live-split-list">
        {split.counts.map((n, i) => {
          const share = total > 0 ? n / total : 0;
          const top = result.top_choices.includes(i);
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a choice's position is its identity here.
            <li key={i} className={top ? 'live-split-row is-top' : 'live-split-row'}>
              <span className="live-split-name">
                {choiceName(question, i)}
                {mine === i && (
                  <span className="live-split-mine">
                    {result.type === 'vote' ? ' (your vote)' : ' (your guess)'}
                  </span>
                )}
              </span>
              <span className="live-split-figure">
                {count.format(n)} {n === 1 ? one : many} · {percent.format(share)}
              </span>
              <span className="live-split-track" aria-hidden="true">
                <span className="live-split-fill" style={{ transform: `scaleX(${share})` }} />
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/**
 * The player's points, score and rank after a question (or at the end: `final`; a score with points
 * still to come, an outcome the host has not entered, is not called final: `settled` false).
 */
export function Standing({
  result,
  final,
  settled = true,
}: {
  result: QuestionResultEvent;
  final: boolean;
  settled?: boolean;
}) {
  const you = result.you;
  if (!you) return null;
  return (
    <div className={final ? 'live-standing is-final' : 'live-standing'}>
      {!final && (
        <p className="live-points">
          {you.points === null ? (
            'Points for this question come later.'
          ) : (
            <>
              <strong className="live-points-number">+{count.format(you.points)}</strong>{' '}
              {you.points === 1 ? 'point' : 'points'}
            </>
          )}
        </p>
      )}
      {!final && result.type === 'vote' && (
        <p className="live-points-note">A vote is your opinion: it scores no points.</p>
      )}
      <dl className="live-figures">
        <div>
          <dt>{final ? (settled ? 'Final score' : 'Score so far') : 'Score'}</dt>
          <dd>{count.format(you.score)}</dd>
        </div>
        <div>
          <dt>Rank</dt>
          <dd>
            {count.format(you.rank)} <span className="live-of">of {count.format(result.players)}</span>
          </dd>
        </div>
      </dl>
    </div>
  );
}

/** Between questions: the answer, how the crowd answered, and the player's standing. */
export function QuestionResult({
  question,
  result,
  stored,
}: {
  question: LiveQuestionEvent | null;
  result: QuestionResultEvent;
  stored: LiveAnswer | undefined;
}) {
  const answer = answerOf(question, result);
  const mine = stored?.choice_i ?? null;
  return (
    <div className="live-result">
      {'note' in answer ? (
        <p className="live-answer-note">{answer.note}</p>
      ) : (
        <p className="live-answer">
          <span className="live-answer-label">{answer.label}</span>{' '}
          <strong className="live-answer-value">{answer.value}</strong>
        </p>
      )}
      {/* The points before the split: on a small phone they are what fits on the screen. */}
      <Standing result={result} final={false} />
      {question && <SplitBars question={question} result={result} mine={mine} />}
    </div>
  );
}

/**
 * Whether the live game's last score may not be its final one: some points came later (a crowd
 * median) or the game waited for an outcome its host enters after the end. Once true it stays true,
 * so a score shown or said 'so far' is never called final before the stored result is read.
 */
export function useScoreComesLater(game: Game, result: QuestionResultEvent | null): boolean {
  const later = useRef(false);
  if (game.waiting_for.length > 0 || result?.later) later.current = true;
  return later.current;
}
