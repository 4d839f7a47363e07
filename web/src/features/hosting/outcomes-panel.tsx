import type { HostGame, HostOutcome, SeasonQuestion } from '@hunch/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { errorText } from '../../api/client';
import { numberText } from '../../shared/question-text';
import { useSingleFlight } from '../../shared/single-flight';
import { withLocalTimes } from '../../shared/time-text';
import { putOutcome, useRefreshHost } from './host-api';
import { outcomesOpen, plural } from './host-text';

type HostQuestion = HostGame['questions'][number];

function outcomeText(q: HostQuestion, crowd: boolean): string {
  if (q.kind !== 'predict') return q.kind === 'vote' ? 'A vote: no outcome' : 'Decided by the answers';
  if (crowd)
    return typeof q.outcome === 'number'
      ? `Outcome: the crowd’s median, ${numberText(q.outcome, q.slider?.unit)}`
      : 'Outcome: the crowd’s median, once scored';
  if (typeof q.outcome === 'number') return `Outcome: ${numberText(q.outcome, q.slider?.unit)}`;
  return 'Outcome pending: enter it below';
}

/**
 * One question's outcome and void: each change re-scores a scored game (hosting spec §3). A crowd
 * question's outcome is the median of its answers (the document says which): it can only be voided.
 */
function OutcomeRow({
  uuid,
  q,
  crowd,
  players,
  scored,
}: {
  uuid: string;
  q: HostQuestion;
  crowd: boolean;
  /** The game's players, whom a correction scores again. */
  players: number;
  /** The game is scored: a voided question restored must bring its outcome. */
  scored: boolean;
}) {
  const refresh = useRefreshHost();
  const [value, setValue] = useState(typeof q.outcome === 'number' ? String(q.outcome) : '');
  const sendOnce = useSingleFlight();
  const send = useMutation({
    mutationFn: (body: HostOutcome) => putOutcome(uuid, q.i, body),
    onSuccess: () => refresh(),
    // A refusal may mean the outcome changed elsewhere (409): show the one there is now.
    onError: () => refresh(),
  });
  const n = q.i + 1;
  const inputId = `outcome-${q.i}`;
  const messageId = `outcome-${q.i}-message`;
  // A voided question that never got its outcome takes one, so that it can be restored.
  const missing = typeof q.outcome !== 'number';
  const canEnter = q.kind === 'predict' && !crowd && (!q.voided || missing) && q.slider;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim() === '') return;
    const outcome = Number(value);
    // A correction re-scores every player at once: asked first, as a void is (when there are any).
    // Before the game is scored, a changed outcome re-scores nobody: nothing to ask.
    const asked =
      !scored ||
      missing ||
      outcome === q.outcome ||
      players === 0 ||
      window.confirm(
        `Change the outcome of question ${n} from ${numberText(q.outcome as number, q.slider?.unit)} to ${numberText(outcome, q.slider?.unit)}? ${plural(players, 'player')} will be scored again.`,
      );
    if (asked) sendOnce(() => send.mutateAsync({ outcome, was: missing ? null : (q.outcome as number) }));
  };
  return (
    <li className="host-outcome">
      <p>
        <strong>Question {n}</strong> · {q.text}
      </p>
      <p className={q.voided ? 'host-state host-voided' : 'note'}>
        {q.voided
          ? `Voided: scores 0 for everyone${canEnter && scored ? '. To restore it, enter its outcome first.' : ''}`
          : outcomeText(q, crowd)}
      </p>
      {canEnter && q.slider && (
        <form onSubmit={submit}>
          <div className={`field ${send.isError ? 'is-invalid' : ''}`}>
            <label htmlFor={inputId}>Outcome of question {n}</label>
            {/* The button stands beside the input, level with it; the range goes below both. */}
            <div className="host-inline-row">
              <input
                id={inputId}
                type="number"
                inputMode="decimal"
                min={q.slider.min}
                max={q.slider.max}
                step="any"
                value={value}
                aria-invalid={send.isError}
                aria-describedby={`${inputId}-hint ${messageId}`}
                onChange={(e) => setValue(e.target.value)}
              />
              <button
                type="submit"
                className="button button-primary"
                disabled={send.isPending || value.trim() === ''}
              >
                {typeof q.outcome === 'number' ? 'Correct outcome' : 'Enter outcome'}
              </button>
            </div>
            <p className="field-hint" id={`${inputId}-hint`}>
              {q.slider.min} to {numberText(q.slider.max, q.slider.unit)}
            </p>
          </div>
        </form>
      )}
      <button
        type="button"
        className="button-link"
        disabled={send.isPending}
        onClick={() => {
          if (q.voided || window.confirm(`Void question ${n}? It will score 0 for everyone.`))
            sendOnce(() => send.mutateAsync({ void: !q.voided }));
        }}
      >
        {q.voided ? 'Restore' : 'Void'} question {n}
      </button>
      <p className={`field-message ${send.isError ? 'host-problem' : ''}`} id={messageId} role="status">
        {send.isError ? withLocalTimes(errorText(send.error)) : send.isSuccess ? 'Saved.' : ''}
      </p>
    </li>
  );
}

const isCrowd = (q: SeasonQuestion | undefined) => q?.kind === 'predict' && q.outcome === 'crowd';

/** Outcomes and voids of an opened game, from standby on (before it the server answers 409). */
export function OutcomesPanel({ game, questions }: { game: HostGame; questions: SeasonQuestion[] }) {
  return (
    <section className="card host-section" aria-labelledby="outcomes-heading">
      <h2 id="outcomes-heading">Outcomes</h2>
      {outcomesOpen(game.state) ? (
        <ol className="host-outcomes">
          {game.questions.map((q) => (
            <OutcomeRow
              key={q.i}
              uuid={game.uuid}
              q={q}
              crowd={isCrowd(questions[q.i])}
              players={game.participants}
              scored={game.state === 'complete'}
            />
          ))}
        </ol>
      ) : (
        <p className="note">
          Outcomes are entered, and questions voided, once answers have closed (when submissions close, or a
          live game starts).
        </p>
      )}
    </section>
  );
}
