import type { LiveAnswer, LiveQuestionEvent } from '@hunch/contract';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { questionImageUrl } from '../../api/asset-urls';
import { numberText, QUESTION_KIND_TEXT } from '../../shared/question-text';
import { SafeImg } from '../../shared/safe-img';
import { middleOf, SliderInput } from '../../shared/slider-input';
import { QuestionTimer } from './live-timer';

const KEYS = 'ABCDEFGHIJKL';

/** The text of a stored answer: the choice, or the number with the slider's unit. */
export function answerText(question: LiveQuestionEvent, answer: LiveAnswer): string {
  if (answer.choice_i !== null) {
    return (
      question.question.choices.find((c) => c.i === answer.choice_i)?.text ?? `Choice ${answer.choice_i + 1}`
    );
  }
  return numberText(answer.number_answer ?? 0, question.question.slider?.unit);
}

interface LiveQuestionProps {
  question: LiveQuestionEvent;
  deadline: number;
  total: number;
  /** The stored answer, once the server has it. */
  stored: LiveAnswer | undefined;
  sending: boolean;
  error: string | null;
  /** False when the player is not in the game (the lobby was closed when they came). */
  canAnswer: boolean;
  onAnswer: (answer: LiveAnswer) => void;
  announce: (text: string) => void;
}

function ChoiceButtons({
  question,
  stored,
  locked,
  onPick,
  headingId,
}: {
  question: LiveQuestionEvent;
  stored: LiveAnswer | undefined;
  locked: boolean;
  onPick: (i: number) => void;
  headingId: string;
}) {
  const withImages = question.question.choices.some((c) => c.image);
  const { choices } = question.question;
  const pick = useRef(onPick);
  pick.current = onPick;
  // The letter on each button picks it from the keyboard, as it suggests; not while the player
  // types somewhere or holds a modifier (the browser's own shortcuts).
  useEffect(() => {
    if (locked) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.repeat || e.key.length !== 1) return;
      const target = e.target instanceof HTMLElement ? e.target : null;
      if (
        target?.isContentEditable ||
        target?.closest('input, textarea, select, [role="textbox"], [role="combobox"], [aria-modal="true"]')
      )
        return;
      const n = KEYS.indexOf(e.key.toUpperCase());
      const choice = n >= 0 ? choices[n] : undefined;
      if (!choice) return;
      e.preventDefault();
      pick.current(choice.i);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [locked, choices]);
  return (
    <fieldset
      aria-labelledby={headingId}
      className={withImages ? 'live-choices live-choices-images' : 'live-choices'}
    >
      {question.question.choices.map((choice, n) => {
        const mine = stored?.choice_i === choice.i;
        const cls = [
          'live-choice',
          mine ? 'is-mine' : '',
          stored && !mine ? 'is-other' : '',
          withImages && !choice.image ? 'no-image' : '',
        ];
        return (
          // Locked buttons stay focusable (aria-disabled): focus is not thrown away on answering.
          <button
            key={choice.i}
            type="button"
            className={cls.filter(Boolean).join(' ')}
            aria-pressed={mine}
            aria-disabled={locked || undefined}
            aria-keyshortcuts={locked ? undefined : KEYS[n]}
            onClick={() => {
              if (!locked) onPick(choice.i);
            }}
          >
            <span className="live-choice-key" aria-hidden="true">
              {KEYS[n] ?? ''}
            </span>
            {choice.image && (
              <SafeImg className="live-choice-image" src={questionImageUrl(choice.image)} alt="" />
            )}
            <span className="live-choice-text">{choice.text}</span>
            {mine && (
              <span className="live-choice-check" aria-hidden="true">
                ✓
              </span>
            )}
          </button>
        );
      })}
    </fieldset>
  );
}

function SliderAnswer({
  question,
  locked,
  onSubmit,
  headingId,
}: {
  question: LiveQuestionEvent;
  locked: boolean;
  onSubmit: (n: number) => void;
  headingId: string;
}) {
  const slider = question.question.slider!;
  const [value, setValue] = useState(() => middleOf(slider.min, slider.max, slider.step));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!locked) onSubmit(value);
  };
  return (
    <form className="live-slider" onSubmit={submit}>
      <SliderInput question={question} value={value} onChange={setValue} headingId={headingId} />
      {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus while sending. */}
      <button
        type="submit"
        className="button button-primary button-block"
        aria-disabled={locked || undefined}
      >
        Submit Answer
      </button>
    </form>
  );
}

/** One live question: text, image, big choice buttons or a slider, the timer, and the locked answer. */
export function LiveQuestion(props: LiveQuestionProps) {
  const { question, deadline, total, stored, sending, error, canAnswer, onAnswer, announce } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  const status = useRef<HTMLParagraphElement>(null);
  const headingId = `live-question-${question.i}`;
  const isSlider = question.type === 'predict' && question.question.slider !== null;
  const locked = stored !== undefined || sending || !canAnswer;
  const isLast = question.i >= total - 1;
  const label = `Question ${question.i + 1} of ${total}`;

  // A new question takes the focus from the last one's controls (which are gone or stale), so a
  // keyboard or screen reader user starts at its text; a pointer user's page does not move.
  useEffect(() => {
    const active = document.activeElement;
    const panel = heading.current?.closest('.live-panel');
    if (!active || active === document.body || panel?.contains(active)) {
      heading.current?.focus({ preventScroll: true });
    }
  }, []);

  // The slider's form goes away once the answer is locked: a keyboard user's focus moves to the
  // status that replaced it.
  const focusStatus = useRef(false);
  useEffect(() => {
    if (stored && focusStatus.current) status.current?.focus({ preventScroll: true });
  }, [stored]);

  return (
    <div className="live-screen live-question">
      <div className="live-question-head">
        <p className="eyebrow">
          {label} · {QUESTION_KIND_TEXT[question.type]}
        </p>
        <QuestionTimer
          deadline={deadline}
          totalMs={question.secs_to_answer * 1000}
          label={label}
          announce={announce}
        />
      </div>
      <h2 id={headingId} ref={heading} tabIndex={-1} className="live-question-text">
        {question.question.text}
      </h2>
      {question.question.image && (
        <SafeImg className="live-question-image" src={questionImageUrl(question.question.image)} alt="" />
      )}
      {isSlider ? (
        stored ? (
          <p className="live-locked-value">
            Your answer: <strong>{answerText(question, stored)}</strong>
          </p>
        ) : (
          <SliderAnswer
            question={question}
            locked={locked}
            onSubmit={(n) => {
              const active = document.activeElement;
              focusStatus.current = !!active && active !== document.body;
              onAnswer({ question_i: question.i, choice_i: null, number_answer: n });
            }}
            headingId={headingId}
          />
        )
      ) : (
        <ChoiceButtons
          question={question}
          stored={stored}
          locked={locked}
          onPick={(i) => onAnswer({ question_i: question.i, choice_i: i, number_answer: null })}
          headingId={headingId}
        />
      )}
      <p
        ref={status}
        tabIndex={-1}
        className={stored ? 'live-status is-locked' : 'live-status'}
        role="status"
        aria-live="polite"
      >
        {stored ? (
          <>
            <span className="live-status-icon" aria-hidden="true">
              ✓
            </span>
            <span>
              <strong>Answer locked in.</strong>{' '}
              {isLast ? 'Waiting for the game to end…' : 'Waiting for the next question…'}
            </span>
          </>
        ) : sending ? (
          'Sending your answer…'
        ) : !canAnswer ? (
          'You are watching: you were not in the lobby for this game.'
        ) : (
          ''
        )}
      </p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
