import { GENDER_MAX } from '@hunch/contract';
import { useId } from 'react';
import { type GenderChoice, SPECIFY_GENDER } from './registration-form';

/** The offered answers; '' is 'Prefer not to answer' and sends nothing (spec §4). */
const OPTIONS = [
  { value: 'Female', label: 'Female' },
  { value: 'Male', label: 'Male' },
  { value: 'Non-binary', label: 'Non-binary' },
  { value: '', label: 'Prefer not to answer' },
] as const;

export function GenderField({
  value,
  onChange,
}: {
  value: GenderChoice;
  onChange: (next: GenderChoice) => void;
}) {
  const id = useId();
  return (
    <fieldset className="field radio-group">
      <legend>Gender</legend>
      <div className="radio-options">
        {OPTIONS.map((option) => (
          <label key={option.label} className="radio">
            <input
              type="radio"
              name={`${id}-gender`}
              value={option.value}
              checked={value.choice === option.value}
              onChange={() => onChange({ ...value, choice: option.value })}
            />
            <span>{option.label}</span>
          </label>
        ))}
        <label className="radio">
          <input
            type="radio"
            name={`${id}-gender`}
            value={SPECIFY_GENDER}
            checked={value.choice === SPECIFY_GENDER}
            onChange={() => onChange({ ...value, choice: SPECIFY_GENDER })}
          />
          <span>Specify</span>
        </label>
      </div>
      {value.choice === SPECIFY_GENDER && (
        <div className="field nested-field">
          <label htmlFor={`${id}-specify`}>Specify gender</label>
          <input
            id={`${id}-specify`}
            maxLength={GENDER_MAX}
            value={value.specified}
            onChange={(e) => onChange({ ...value, specified: e.target.value })}
            aria-describedby={`${id}-specify-hint`}
            autoFocus
          />
          <p className="field-hint" id={`${id}-specify-hint`}>
            Up to {GENDER_MAX} characters.
          </p>
        </div>
      )}
    </fieldset>
  );
}
