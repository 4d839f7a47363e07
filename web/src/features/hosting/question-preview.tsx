import type { SeasonGame, SeasonQuestion } from '@hunch/contract';
import { questionImageUrl } from '../../api/asset-urls';
import { QUESTION_KIND_TEXT } from '../../shared/question-text';
import { SafeImg } from '../../shared/safe-img';
import { middleOf, SliderInput } from '../../shared/slider-input';
import { editableChoices } from './season-edit';

/** A slider the player could use: a range with a positive step (else the preview says so). */
function sliderOk(q: Extract<SeasonQuestion, { kind: 'predict' }>): boolean {
  const { min, max, step } = q.slider;
  return [min, max, step].every(Number.isFinite) && max > min && step > 0;
}

function PreviewQuestion({ q, i, count }: { q: SeasonQuestion; i: number; count: number }) {
  const headingId = `preview-${i}-text`;
  const choices = editableChoices(q);
  const withImages = choices.some((c) => c.image);
  return (
    <li className="card question-card host-preview-card">
      <p className="note">
        Question {i + 1} of {count} · {QUESTION_KIND_TEXT[q.kind]}
      </p>
      <h3 className="question-text" id={headingId}>
        {q.text || <span className="note">(no question text yet)</span>}
      </h3>
      {q.image && <SafeImg className="question-image" src={questionImageUrl(q.image)} alt="" />}
      {/* Disabled: a preview, not an answer. */}
      <fieldset className="host-preview-inputs" disabled aria-labelledby={headingId}>
        {q.kind === 'predict' ? (
          sliderOk(q) ? (
            <SliderInput
              question={{
                i: 1000 + i,
                question: { text: q.text, image: q.image ?? null, choices: [], slider: q.slider },
              }}
              value={middleOf(q.slider.min, q.slider.max, q.slider.step)}
              onChange={() => {}}
              headingId={headingId}
            />
          ) : (
            <p className="note">The slider is not complete yet.</p>
          )
        ) : (
          <div className={withImages ? 'choices choices-images' : 'choices'}>
            {choices.map((c, k) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: choices have no identity but their place
              <label key={k} className="choice">
                <input type="radio" name={`preview-${i}`} value={k} />
                {c.image && <SafeImg className="choice-image" src={questionImageUrl(c.image)} alt="" />}
                <span className="choice-text">{c.text || '(empty choice)'}</span>
              </label>
            ))}
          </div>
        )}
      </fieldset>
    </li>
  );
}

/** The questions as a player sees them (hosting spec §2), read-only. */
export function QuestionPreview({ game }: { game: SeasonGame }) {
  return (
    <ol className="host-preview" aria-label="Preview of the questions">
      {game.questions.map((q, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the preview follows the questions' order
        <PreviewQuestion key={i} q={q} i={i} count={game.questions.length} />
      ))}
    </ol>
  );
}
