import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { withLocalTimes } from '../../shared/time-text';
import { errorIdOf, fieldId } from './error-paths';
import { fromLocalInput, toLocalInput } from './schedule-time';
import { listFromText } from './season-edit';
import { valueAt } from './use-draft';

/**
 * The console's form fields. Each is named by the document path it edits: its id comes from the
 * path, and a refused import's messages at that path stand beside it, tied to the control by
 * aria-describedby and marked with aria-invalid (and in words, not only by colour).
 */

interface FieldsContext {
  problems: ReadonlyMap<string, string[]>;
  /** The document as saved, which the fields' paths point into. */
  saved?: unknown;
}

const FieldsContext = createContext<FieldsContext>({ problems: new Map() });

/**
 * What a screen's fields are told: the problems at their paths (`value`), and the document as
 * saved (`saved`), for a field to tell what is saved from what waits for Save.
 */
export function ProblemsProvider({
  value,
  saved,
  children,
}: {
  value: ReadonlyMap<string, string[]>;
  saved?: unknown;
  children: ReactNode;
}) {
  const context = useMemo(() => ({ problems: value, saved }), [value, saved]);
  return <FieldsContext.Provider value={context}>{children}</FieldsContext.Provider>;
}

export function useFieldProblems(path: string): string[] {
  return useContext(FieldsContext).problems.get(path) ?? [];
}

/** The saved value at `path` (undefined without a saved document). */
export function useSavedValue(path: string): unknown {
  return valueAt(useContext(FieldsContext).saved, path);
}

/**
 * The messages at `path`, in the element aria-describedby points to (empty when there are none):
 * each on a line of its own (two at one field read as one sentence otherwise), their times on the
 * host's clock as the field shows them.
 */
export function FieldProblems({ path }: { path: string }) {
  const messages = useFieldProblems(path);
  return (
    <p className="field-message host-problem" id={errorIdOf(path)}>
      {messages.length > 0 && <span className="visually-hidden">Error: </span>}
      {[...new Set(messages)].map((message, k) => (
        <span className="host-problem-line" key={message}>
          {k > 0 && ' '}
          {withLocalTimes(message)}
        </span>
      ))}
    </p>
  );
}

interface Described {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string;
}

/** A labelled control with its hint and its problems; `control` gets the id and aria wiring. */
function Field({
  path,
  label,
  hint,
  note,
  className = '',
  control,
}: {
  path: string;
  label: string;
  hint?: ReactNode;
  note?: ReactNode;
  className?: string;
  control: (described: Described) => ReactNode;
}) {
  const id = fieldId(path);
  const invalid = useFieldProblems(path).length > 0;
  const describedBy = [hint ? `${id}-hint` : null, note ? `${id}-note` : null, errorIdOf(path)]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={`field ${invalid ? 'is-invalid' : ''} ${className}`}>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {control({ id, 'aria-invalid': invalid, 'aria-describedby': describedBy })}
      {note && (
        <p className="field-hint" id={`${id}-note`}>
          {note}
        </p>
      )}
      <FieldProblems path={path} />
    </div>
  );
}

interface BaseProps {
  path: string;
  label: string;
  /** Help above the control. */
  hint?: ReactNode;
  /** Help below the control, about the value it holds (a select's chosen option). */
  note?: ReactNode;
  disabled?: boolean;
  className?: string;
}

export function TextField({
  value,
  onChange,
  multiline,
  maxLength,
  readOnly,
  ...base
}: BaseProps & {
  value: string;
  onChange?: (value: string) => void;
  multiline?: boolean;
  maxLength?: number;
  readOnly?: boolean;
}) {
  return (
    <Field
      {...base}
      control={(d) =>
        multiline ? (
          <textarea
            {...d}
            rows={3}
            value={value}
            maxLength={maxLength}
            readOnly={readOnly}
            disabled={base.disabled}
            onChange={(e) => onChange?.(e.target.value)}
          />
        ) : (
          <input
            {...d}
            type="text"
            value={value}
            maxLength={maxLength}
            readOnly={readOnly}
            disabled={base.disabled}
            onChange={(e) => onChange?.(e.target.value)}
          />
        )
      }
    />
  );
}

/**
 * A number input. It keeps the text being typed ('-', '1.') while it is not a number yet; the
 * document gets NaN for an empty field, which the import reports at the field.
 */
export function NumberField({
  value,
  onChange,
  min,
  max,
  step,
  ...base
}: BaseProps & { value: number; onChange: (n: number) => void; min?: number; max?: number; step?: number }) {
  const [text, setText] = useState(Number.isFinite(value) ? String(value) : '');
  useEffect(() => {
    setText((old) =>
      Number(old) === value && old !== '' ? old : Number.isFinite(value) ? String(value) : '',
    );
  }, [value]);
  return (
    <Field
      {...base}
      control={(d) => (
        <input
          {...d}
          type="number"
          inputMode="decimal"
          value={text}
          min={min}
          max={max}
          step={step ?? 'any'}
          disabled={base.disabled}
          onChange={(e) => {
            setText(e.target.value);
            onChange(e.target.value === '' ? Number.NaN : Number(e.target.value));
          }}
        />
      )}
    />
  );
}

/** A schedule time: entered in the host's zone (datetime-local), stored as a UTC instant. */
export function DateTimeField({
  value,
  onChange,
  min,
  ...base
}: BaseProps & { value: string; onChange: (iso: string) => void; min?: string }) {
  return (
    <Field
      {...base}
      control={(d) => (
        <input
          {...d}
          type="datetime-local"
          value={toLocalInput(value)}
          min={min ? toLocalInput(min).slice(0, 16) : undefined}
          disabled={base.disabled}
          onChange={(e) => onChange(fromLocalInput(e.target.value))}
        />
      )}
    />
  );
}

/** A comma-separated list (categories, subcommunities); the typed text stays as typed. */
export function ListField({
  value,
  onChange,
  ...base
}: BaseProps & { value: readonly string[]; onChange: (list: string[]) => void }) {
  const [text, setText] = useState(value.join(', '));
  useEffect(() => {
    setText((old) => (listFromText(old).join('\n') === value.join('\n') ? old : value.join(', ')));
  }, [value]);
  return (
    <Field
      {...base}
      control={(d) => (
        <input
          {...d}
          type="text"
          value={text}
          disabled={base.disabled}
          autoCapitalize="none"
          onChange={(e) => {
            setText(e.target.value);
            onChange(listFromText(e.target.value));
          }}
        />
      )}
    />
  );
}

export function SelectField({
  value,
  onChange,
  options,
  ...base
}: BaseProps & {
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
}) {
  return (
    <Field
      {...base}
      control={(d) => (
        <select {...d} value={value} disabled={base.disabled} onChange={(e) => onChange(e.target.value)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/** A checkbox with its label beside it; its problems below. */
export function CheckField({
  path,
  label,
  hint,
  checked,
  onChange,
  disabled,
}: BaseProps & { checked: boolean; onChange: (checked: boolean) => void }) {
  const id = fieldId(path);
  const invalid = useFieldProblems(path).length > 0;
  const describedBy = [hint ? `${id}-hint` : null, errorIdOf(path)].filter(Boolean).join(' ');
  return (
    <div className={`field host-check ${invalid ? 'is-invalid' : ''}`}>
      <label className="host-check-label" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={checked}
          disabled={disabled}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.checked)}
        />
        {label}
      </label>
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <FieldProblems path={path} />
    </div>
  );
}
