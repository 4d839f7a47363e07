import {
  SECS_TO_ANSWER_MAX,
  SECS_TO_ANSWER_MIN,
  type SeasonGame,
  type SeasonQuestion,
} from '@hunch/contract';
import { useRef } from 'react';
import { errorIdOf, fieldId } from './error-paths';
import { FieldProblems, NumberField, SelectField, TextField, useFieldProblems } from './fields';
import { sliderRangeText } from './host-text';
import { ImageField } from './image-field';
import {
  CHOICES_MAX,
  CHOICES_MIN,
  type EditChoice,
  editableChoices,
  followLinkedVote,
  guessesLinkedTo,
  linkableVotes,
  withKind,
} from './season-edit';

// Short names, which a phone's select shows whole; the chosen kind is explained below it.
const KIND_OPTIONS = [
  { value: 'vote', label: 'Vote' },
  { value: 'guess', label: 'Guess' },
  { value: 'predict', label: 'Predict' },
];

const KIND_NOTE: Record<SeasonQuestion['kind'], string> = {
  vote: 'Players pick their favourite. No right answer: it scores no points.',
  guess:
    'Players pick the answer they think is most popular; the more players picked it, the more it scores.',
  predict: 'Players pick a number on a slider; the closer to the outcome, the more points.',
};

type ChoiceQuestion = Exclude<SeasonQuestion, { kind: 'predict' }>;
type PredictQuestion = Extract<SeasonQuestion, { kind: 'predict' }>;

/** A group of fields (choices, slider, outcome) whose own problems stand under its legend. */
function Group({ path, legend, children }: { path: string; legend: string; children: React.ReactNode }) {
  const invalid = useFieldProblems(path).length > 0;
  return (
    <fieldset
      className={`host-group ${invalid ? 'is-invalid' : ''}`}
      id={fieldId(path)}
      aria-describedby={errorIdOf(path)}
      tabIndex={-1}
    >
      <legend>{legend}</legend>
      <FieldProblems path={path} />
      {children}
    </fieldset>
  );
}

function ChoicesEditor({
  at,
  n,
  q,
  onChange,
}: {
  at: string;
  n: number;
  q: ChoiceQuestion;
  onChange: (q: SeasonQuestion) => void;
}) {
  const choices = editableChoices(q);
  const set = (next: EditChoice[]) => onChange({ ...q, choices: next });
  const setChoice = (c: number, patch: Partial<EditChoice>) =>
    set(choices.map((old, k) => (k === c ? { ...old, ...patch } : old)));
  return (
    <Group path={`${at}.choices`} legend={`Choices (${CHOICES_MIN} to ${CHOICES_MAX})`}>
      <ol className="host-choices">
        {choices.map((choice, c) => {
          const label = `Question ${n}, choice ${c + 1}`;
          return (
            // Choices are plain data without identity; their place is their key.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={c} className="host-choice">
              <TextField
                path={`${at}.choices.${c}`}
                label={`Choice ${c + 1}`}
                value={choice.text}
                maxLength={120}
                onChange={(text) => setChoice(c, { text })}
              />
              {/* Remove choice among the image's links: beside the thumbnail, or beside Add image. */}
              <ImageField
                compact
                path={`${at}.choices.${c}.image`}
                label={`Image for choice ${c + 1}`}
                kind="questions"
                value={choice.image}
                onChange={(image) => setChoice(c, { image })}
                extra={
                  <button
                    type="button"
                    className="button-link"
                    disabled={choices.length <= CHOICES_MIN}
                    onClick={() => set(choices.filter((_, k) => k !== c))}
                  >
                    Remove choice<span className="visually-hidden"> {label}</span>
                  </button>
                }
              />
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        className="button button-secondary host-small-button"
        disabled={choices.length >= CHOICES_MAX}
        onClick={() => set([...choices, { text: '' }])}
      >
        Add choice<span className="visually-hidden"> to question {n}</span>
      </button>
    </Group>
  );
}

function PredictEditor({
  at,
  q,
  onChange,
}: {
  at: string;
  q: PredictQuestion;
  onChange: (q: SeasonQuestion) => void;
}) {
  const slider = (patch: Partial<PredictQuestion['slider']>) =>
    onChange({ ...q, slider: { ...q.slider, ...patch } });
  const mode = typeof q.outcome === 'number' ? 'number' : q.outcome;
  return (
    <>
      <Group path={`${at}.slider`} legend="Slider">
        <div className="host-grid">
          <NumberField
            path={`${at}.slider.min`}
            label="Min"
            value={q.slider.min}
            onChange={(min) => slider({ min })}
          />
          <NumberField
            path={`${at}.slider.max`}
            label="Max"
            value={q.slider.max}
            onChange={(max) => slider({ max })}
          />
          <NumberField
            path={`${at}.slider.step`}
            label="Step"
            value={q.slider.step}
            onChange={(step) => slider({ step })}
          />
          <TextField
            path={`${at}.slider.unit`}
            label="Unit"
            value={q.slider.unit}
            maxLength={20}
            onChange={(unit) => slider({ unit })}
          />
        </div>
      </Group>
      {/* The outcome's problems stand beside its number, or under the legend when it is a word. */}
      <fieldset
        className="host-group"
        id={typeof q.outcome === 'number' ? undefined : fieldId(`${at}.outcome`)}
        tabIndex={-1}
      >
        <legend>Outcome</legend>
        <div className="radio-options">
          {(
            [
              ['number', 'A number, known now'],
              ['crowd', 'Crowd: the median of the answers'],
              ['pending', 'Pending: entered after the game'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="radio">
              <input
                type="radio"
                name={`${at}-outcome`}
                value={value}
                checked={mode === value}
                onChange={() => onChange({ ...q, outcome: value === 'number' ? q.slider.min : value })}
              />
              {label}
            </label>
          ))}
        </div>
        {typeof q.outcome === 'number' ? (
          <NumberField
            path={`${at}.outcome`}
            label="The outcome"
            hint={sliderRangeText(q.slider)}
            value={q.outcome}
            onChange={(outcome) => onChange({ ...q, outcome })}
          />
        ) : (
          <FieldProblems path={`${at}.outcome`} />
        )}
      </fieldset>
    </>
  );
}

export interface QuestionEditorProps {
  /** The question's path in the document (`series.0.games.2.questions.1`). */
  at: string;
  index: number;
  count: number;
  question: SeasonQuestion;
  game: SeasonGame;
  /** `relinked`: guesses to link to this question again (replaceQuestion). */
  onChange: (q: SeasonQuestion, relinked?: readonly number[]) => void;
  onMove: (delta: number) => void;
  onRemove: () => void;
  /** Changes each time questions move or go: what a question left behind belongs to its place. */
  layout: number;
}

/** What a kind change left behind: the question as it was on each side, and a vote's guesses. */
interface LeftBehind {
  layout: number;
  choices?: SeasonQuestion;
  predict?: SeasonQuestion;
  linkedBy?: number[];
}

/** One question of an unlocked game: its kind, text, image, choices or slider, and live time. */
export function QuestionEditor({
  at,
  index,
  count,
  question: q,
  game,
  onChange,
  onMove,
  onRemove,
  layout,
}: QuestionEditorProps) {
  const n = index + 1;
  const votes = q.kind === 'guess' ? linkableVotes(game, index) : [];
  // What a kind change left behind (the choices, or the slider and outcome), to restore when the
  // kind changes back. Only while the questions keep their places: after a move or a removal this
  // place holds another question, whose parts these are not (`layout` counts those changes).
  // A vote's guesses, unlinked when it stops being one, are linked again when it is a vote again.
  const leftBehind = useRef<LeftBehind>({ layout });
  const changeKind = (kind: SeasonQuestion['kind']) => {
    const kept = leftBehind.current.layout === layout ? leftBehind.current : { layout };
    const side = (k: SeasonQuestion['kind']) => (k === 'predict' ? 'predict' : 'choices');
    leftBehind.current = {
      ...kept,
      [side(q.kind)]: q,
      ...(q.kind === 'vote' && { linkedBy: guessesLinkedTo(game, index) }),
    };
    const next = followLinkedVote(game, index, withKind(q, kind, kept[side(kind)]));
    onChange(next, kind === 'vote' ? kept.linkedBy : undefined);
  };
  return (
    <li className="card host-question">
      <Group path={at} legend={`Question ${n}`}>
        <div className="host-question-tools">
          <button
            type="button"
            id={`${fieldId(at)}-up`}
            className="button-link"
            disabled={index === 0}
            onClick={() => onMove(-1)}
          >
            Move up<span className="visually-hidden"> question {n}</span>
          </button>
          <button
            type="button"
            id={`${fieldId(at)}-down`}
            className="button-link"
            disabled={index === count - 1}
            onClick={() => onMove(1)}
          >
            Move down<span className="visually-hidden"> question {n}</span>
          </button>
          <button
            type="button"
            className="button-link host-danger-link"
            disabled={count <= 1}
            onClick={onRemove}
          >
            Remove<span className="visually-hidden"> question {n}</span>
          </button>
        </div>
        <SelectField
          path={`${at}.kind`}
          label="Kind"
          value={q.kind}
          options={KIND_OPTIONS}
          note={KIND_NOTE[q.kind]}
          onChange={(kind) => changeKind(kind as SeasonQuestion['kind'])}
        />
        <TextField
          path={`${at}.text`}
          label="Question text"
          value={q.text}
          maxLength={300}
          onChange={(text) => onChange({ ...q, text })}
        />
        <ImageField
          path={`${at}.image`}
          label="Question image (optional)"
          kind="questions"
          value={q.image}
          onChange={(image) => onChange({ ...q, image })}
        />
        {q.kind === 'predict' ? (
          <PredictEditor at={at} q={q} onChange={onChange} />
        ) : (
          <ChoicesEditor at={at} n={n} q={q} onChange={onChange} />
        )}
        {q.kind === 'guess' && (
          <SelectField
            path={`${at}.linked_vote`}
            label="Linked vote"
            hint="The vote whose answers decide the most popular choice. Linking copies its choices, which the guess must offer."
            value={q.linked_vote === undefined ? '' : String(q.linked_vote)}
            options={[
              { value: '', label: 'None: the guesses themselves decide' },
              ...votes.map((v) => ({
                value: String(v.n),
                label: `Question ${v.n}: ${v.text || '(no text yet)'}`,
              })),
            ]}
            onChange={(v) => {
              const { linked_vote: _, ...rest } = q;
              const vote = v === '' ? undefined : game.questions[Number(v) - 1];
              // A linked guess must offer its vote's choices in its order: they are copied over.
              onChange(vote ? { ...rest, linked_vote: Number(v), choices: editableChoices(vote) } : rest);
            }}
          />
        )}
        {game.synchronous && (
          <NumberField
            path={`${at}.secs_to_answer`}
            label="Seconds to answer"
            hint={`In the live game: ${SECS_TO_ANSWER_MIN} to ${SECS_TO_ANSWER_MAX} seconds.`}
            value={q.secs_to_answer}
            min={SECS_TO_ANSWER_MIN}
            max={SECS_TO_ANSWER_MAX}
            step={1}
            onChange={(secs_to_answer) => onChange({ ...q, secs_to_answer })}
          />
        )}
      </Group>
    </li>
  );
}
