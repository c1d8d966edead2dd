import type { ReactNode, TextareaHTMLAttributes } from 'react';
import { FieldFrame } from './form';

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  name: string;
  error?: string;
  hint?: ReactNode;
}

/** A labelled multi-line field (one value a line), its hint and error tied to it as TextField does. */
export function TextAreaField({ label, name, error, hint, ...area }: TextAreaFieldProps) {
  return <FieldFrame label={label} error={error} hint={hint} control={(aria) => <textarea {...aria} name={name} {...area} />} />;
}

/** The lines of a one-value-a-line field, trimmed, blank ones dropped. */
export function linesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}
