import type { QuestionItem } from '@hunch/contract';
import { numberText } from './question-text';

/** A slider's starting point when nothing is saved: the middle of its range, on a step. */
export function middleOf(min: number, max: number, step: number): number {
  const steps = Math.round((max - min) / 2 / step);
  return Number((min + steps * step).toFixed(6));
}

/** The id of the note a slider shows while it stands untouched at its starting point. */
export function sliderNoteId(question: Pick<QuestionItem, 'i'>): string {
  return `slider-${question.i}-note`;
}

/** A slider question's input: the value with its unit, the range and its ends (question flow and live game). */
export function SliderInput({
  question,
  value,
  onChange,
  headingId,
  untouched = false,
}: {
  question: Pick<QuestionItem, 'i' | 'question'>;
  value: number;
  onChange: (n: number) => void;
  headingId: string;
  /**
   * Nothing saved and not moved yet: the value is only the starting point, and says so, so nobody
   * sends the middle of the range without seeing it (the submit button points here too).
   */
  untouched?: boolean;
}) {
  const slider = question.question.slider!;
  const unit = slider.unit ? ` ${slider.unit}` : '';
  return (
    <div className={untouched ? 'slider-field is-untouched' : 'slider-field'}>
      {/* Not a live region (an output is one by default): the slider itself says its value, with
          aria-valuetext, and screen readers read each step twice. */}
      <output className="slider-value" htmlFor={`slider-${question.i}`} aria-live="off">
        {value.toLocaleString('en-US')}
        <span className="slider-unit">{unit}</span>
      </output>
      <input
        id={`slider-${question.i}`}
        type="range"
        min={slider.min}
        max={slider.max}
        step={slider.step}
        value={value}
        aria-labelledby={headingId}
        aria-valuetext={`${value}${unit}`}
        onChange={(e) => onChange(Number(e.target.value))}
      />
      <div className="slider-scale" aria-hidden="true">
        <span>{numberText(slider.min, slider.unit)}</span>
        <span>{numberText(slider.max, slider.unit)}</span>
      </div>
      {untouched && (
        <p className="slider-note" id={sliderNoteId(question)}>
          {`You have not moved the slider yet: submitting sends ${numberText(value, slider.unit)}.`}
        </p>
      )}
    </div>
  );
}
