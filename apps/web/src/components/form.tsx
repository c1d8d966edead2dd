import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { ApiError, plainMessage } from '../api/errors';

/** The field errors of a refusal (meta.errors by name), or none. */
export function fieldErrors(error: unknown): Readonly<Record<string, string>> {
  return error instanceof ApiError ? error.fields : {};
}

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  name: string;
  /** The API's message for this field (meta.errors), shown under it and tied to it for screen readers. */
  error?: string;
  hint?: ReactNode;
}

/**
 * A field's label, hint and error around its control: `control` gets the id and the aria attributes
 * that tie the hint and the error to it, so screen readers announce them with the field.
 */
export function FieldFrame({
  label,
  error,
  hint,
  control,
}: {
  label: string;
  error?: string;
  hint?: ReactNode;
  control: (aria: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {control({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described })}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled input with its hint and its error, the error announced with the field. */
export function TextField({ label, name, error, hint, ...input }: TextFieldProps) {
  return <FieldFrame label={label} error={error} hint={hint} control={(aria) => <input {...aria} name={name} {...input} />} />;
}

/** A set of checkboxes (scopes), its error shown under the group. */
export function CheckboxGroup({
  legend,
  name,
  options,
  value,
  onChange,
  error,
}: {
  legend: string;
  name: string;
  options: readonly { value: string; label: string }[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  error?: string;
}) {
  const id = useId();
  return (
    <fieldset className={`field checkbox-group${error ? ' field-invalid' : ''}`} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      <div className="checkbox-grid">
        {options.map((option) => (
          <label key={option.value} className="checkbox">
            <input
              type="checkbox"
              name={name}
              value={option.value}
              checked={value.includes(option.value)}
              onChange={(event) => onChange(event.target.checked ? [...value, option.value] : value.filter((v) => v !== option.value))}
            />
            {option.label}
          </label>
        ))}
      </div>
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

/**
 * The message of a refusal that no field of the form shows (a quota, a rate limit, a fault), or nothing
 * when every field error is already beside its field.
 */
export function FormError({ error, shown = [] }: { error: unknown; shown?: readonly string[] }) {
  // The password field that appears says what a REAUTHENTICATION_REQUIRED refusal asks for.
  if (!error || (error instanceof ApiError && error.needsPassword)) return null;
  const fields = fieldErrors(error);
  if (Object.keys(fields).length && Object.keys(fields).every((name) => shown.includes(name))) return null;
  return (
    <p className="form-error" role="alert">
      {plainMessage(error)}
    </p>
  );
}

/** A form's submit button that says when it is busy. */
export function SubmitButton({ busy, children, busyLabel = 'Working…' }: { busy: boolean; children: ReactNode; busyLabel?: string }) {
  return (
    <button type="submit" className="primary" disabled={busy} aria-busy={busy || undefined}>
      {busy ? busyLabel : children}
    </button>
  );
}
