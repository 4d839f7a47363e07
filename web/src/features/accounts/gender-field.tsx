import { GENDER_MAX } from '@hunch/contract';
import { useId } from 'react';

/** The offered answers; '' is 'Prefer not to answer' and sends nothing (spec §4). */
const OPTIONS = [
  { value: 'Female', label: 'Female' },
  { value: 'Male', label: 'Male' },
  { value: 'Non-binary', label: 'Non-binary' },
  { value: '', label: 'Prefer not to answer' },
] as const;

export const SPECIFY = 'specify';

export interface GenderChoice {
  /** One of OPTIONS' values, or SPECIFY. */
  choice: string;
  /** The free text used when choice is SPECIFY. */
  specified: string;
}

/** The value to submit: the specified text replaces the choice; empty means "omit the field". */
export function genderValue({ choice, specified }: GenderChoice): string {
  return choice === SPECIFY ? specified.trim() : choice;
}

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
            value={SPECIFY}
            checked={value.choice === SPECIFY}
            onChange={() => onChange({ ...value, choice: SPECIFY })}
          />
          <span>Specify</span>
        </label>
      </div>
      {value.choice === SPECIFY && (
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
