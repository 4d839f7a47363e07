import type { QuestionItem } from '@hunch/contract';
import { numberText } from './question-text';

/** A slider's starting point when nothing is saved: the middle of its range, on a step. */
export function middleOf(min: number, max: number, step: number): number {
  const steps = Math.round((max - min) / 2 / step);
  return Number((min + steps * step).toFixed(6));
}

/** A slider question's input: the value with its unit, the range and its ends (question flow and live game). */
export function SliderInput({
  question,
  value,
  onChange,
  headingId,
}: {
  question: Pick<QuestionItem, 'i' | 'question'>;
  value: number;
  onChange: (n: number) => void;
  headingId: string;
}) {
  const slider = question.question.slider!;
  const unit = slider.unit ? ` ${slider.unit}` : '';
  return (
    <div className="slider-field">
      <output className="slider-value" htmlFor={`slider-${question.i}`} aria-live="polite">
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
    </div>
  );
}
