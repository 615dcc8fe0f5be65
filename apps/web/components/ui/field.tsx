import type { InputHTMLAttributes, ReactNode } from "react";

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  name: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
};

/** A labelled input with its hint and error below, tied to it for screen readers (not part of its name). */
export function Field({ name, label, error, hint, ...input }: FieldProps) {
  const describedBy = [error ? `${name}-error` : null, hint ? `${name}-hint` : null]
    .filter(Boolean)
    .join(" ");
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <input
        id={name}
        name={name}
        aria-invalid={Boolean(error)}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      {hint && (
        <small id={`${name}-hint`} className="muted">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${name}-error`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}
