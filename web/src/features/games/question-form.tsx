import type { Game, LiveAnswer, Participation, QuestionItem } from '@hunch/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useBlocker } from 'react-router';
import { questionImageUrl } from '../../api/asset-urls';
import { queryKeys } from '../../api/query-keys';
import { SafeImg } from '../../shared/safe-img';
import { useSingleFlight } from '../../shared/single-flight';
import { SliderInput, sliderNoteId } from '../../shared/slider-input';
import { submitAnswer } from './game-api';
import { draftFor, draftStatus, withStoredAnswer } from './question-flow';

interface QuestionFormProps {
  game: Game;
  participation: Participation;
  question: QuestionItem;
  isLast: boolean;
  /** Called once the server has stored the answer. */
  onSaved: () => void;
  /** Rendered beside the submit button (previous / next links). */
  navigation: ReactNode;
  headingId: string;
  /** Kept true while the player has changed the answer and not submitted it. */
  unsentChange?: { current: boolean };
}

function ChoiceInput({
  question,
  value,
  onChange,
  headingId,
}: {
  question: QuestionItem;
  value: number | null;
  onChange: (i: number) => void;
  headingId: string;
}) {
  const withImages = question.question.choices.some((c) => c.image);
  return (
    <div
      role="radiogroup"
      aria-labelledby={headingId}
      aria-required="true"
      className={withImages ? 'choices choices-images' : 'choices'}
    >
      {question.question.choices.map((choice) => (
        <label key={choice.i} className="choice">
          <input
            type="radio"
            name={`question-${question.i}`}
            value={choice.i}
            checked={value === choice.i}
            onChange={() => onChange(choice.i)}
          />
          {choice.image && (
            <SafeImg className="choice-image" src={questionImageUrl(choice.image)} alt="" loading="lazy" />
          )}
          <span className="choice-text">{choice.text}</span>
        </label>
      ))}
    </div>
  );
}

/** One question of the flow: its input, and a submit that is enabled only for a changed answer. */
export function QuestionForm(props: QuestionFormProps) {
  const { game, participation, question, isLast, onSaved, navigation, headingId } = props;
  const queryClient = useQueryClient();
  const saved = participation.answers[String(question.i)];
  const [draft, setDraft] = useState<LiveAnswer>(() => draftFor(question, saved));
  const [submitting, setSubmitting] = useState(false);
  // The answer never reached the server (no connection): unlike a refusal, said, so the player
  // does not take it for saved.
  const [unreached, setUnreached] = useState(false);
  // Set by the player's own edits (a slider starts mid-range, which is no answer to protect).
  const [touched, setTouched] = useState(false);
  const saving = useRef(false);
  const sendOnce = useSingleFlight();
  const edit = (next: LiveAnswer) => {
    setTouched(true);
    setUnreached(false);
    setDraft(next);
  };

  const { isPredict, answered, changed } = draftStatus(question, draft, saved);
  // A slider starts mid-range: sending that untouched is allowed, but never unseen (issue 27).
  const untouchedSlider = isPredict && !saved && !touched;

  // Spec §2: leaving the flow asks first. The browser's own prompt covers reloads and closing the
  // tab; this covers links inside the app while an edited answer is not submitted yet.
  const unsent = touched && answered && changed;
  const blocker = useBlocker(() => unsent && !saving.current);
  // The page learns of it too: should submissions close now, it says the change was not saved.
  if (props.unsentChange) props.unsentChange.current = unsent && !saving.current;
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm('Leave this question? Your changed answer is not submitted yet.')) blocker.proceed();
    else blocker.reset();
  }, [blocker]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!answered || !changed) return;
    sendOnce(send);
  };

  const send = async () => {
    saving.current = true;
    setSubmitting(true);
    setUnreached(false);
    const stored = await submitAnswer(game, draft, participation.entry.subcommunity?.endpoint ?? null).catch(
      (err: unknown) => {
        // fetch's own failure (no connection) is a TypeError; an answer the server sent is not.
        if (err instanceof TypeError) setUnreached(true);
        return null;
      },
    );
    setSubmitting(false);
    if (!stored) {
      saving.current = false;
      return; // Spec §8: a refused answer silently does nothing.
    }
    queryClient.setQueryData<Participation | null>(queryKeys.participation(game.uuid), (p) =>
      p ? withStoredAnswer(p, question, stored) : p,
    );
    onSaved();
  };

  return (
    <form
      className={question.question.image ? 'question-form has-image' : 'question-form'}
      onSubmit={onSubmit}
      aria-busy={submitting}
    >
      {question.question.image && (
        <SafeImg className="question-image" src={questionImageUrl(question.question.image)} alt="" />
      )}
      {isPredict ? (
        <SliderInput
          question={question}
          value={draft.number_answer ?? 0}
          onChange={(n) => edit({ ...draft, number_answer: n })}
          headingId={headingId}
          untouched={untouchedSlider}
        />
      ) : (
        <ChoiceInput
          question={question}
          value={draft.choice_i}
          onChange={(i) => edit({ ...draft, choice_i: i })}
          headingId={headingId}
        />
      )}
      <p className={unreached ? 'question-saved form-error' : 'question-saved note'} aria-live="polite">
        {unreached
          ? 'Your answer could not be sent: check your connection, then submit it again.'
          : saved &&
            (changed ? 'Not submitted yet: you changed your saved answer.' : 'Your answer is saved.')}
      </p>
      <div className="question-actions">
        <button
          type="submit"
          className="button button-primary question-submit"
          disabled={!answered || !changed || submitting}
          aria-describedby={untouchedSlider ? sliderNoteId(question) : undefined}
        >
          {isLast ? 'Submit & Finish' : 'Submit Answer'}
        </button>
        {navigation}
      </div>
    </form>
  );
}
