import type { InputHTMLAttributes } from 'react';
import type { FieldState } from './field-states';

interface CheckedFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  state: FieldState;
  hint?: string;
}

/**
 * A labelled input whose check result colours it (valid: light green, invalid: pink) and whose message
 * is tied to it with aria-describedby and announced politely as it changes.
 */
export function CheckedField({ id, label, value, onValueChange, state, hint, ...input }: CheckedFieldProps) {
  const hintId = `${id}-hint`;
  const messageId = `${id}-message`;
  const describedBy = [hint ? hintId : null, messageId].filter(Boolean).join(' ');
  return (
    <div className={`field is-${state.status}`}>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      <input
        {...input}
        id={id}
        value={value}
        onChange={(e) => onValueChange(e.target.value)}
        aria-invalid={state.status === 'invalid'}
        aria-describedby={describedBy}
      />
      <p className="field-message" id={messageId} aria-live="polite">
        {state.message}
      </p>
    </div>
  );
}
