import type { InputHTMLAttributes, ReactNode, Ref, TextareaHTMLAttributes } from "react";

interface Labelled {
  name: string;
  /** The control's id when it must differ from its name (two forms on one page). */
  id?: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
}

/** The label, the control, then its hint and error, tied to the control for screen readers. */
function FieldFrame({
  id,
  label,
  error,
  hint,
  control,
}: Omit<Labelled, "name"> & {
  id: string;
  control: (a11y: { "aria-invalid": boolean; "aria-describedby"?: string }) => ReactNode;
}) {
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control({
        "aria-invalid": Boolean(error),
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
      })}
      {hint && (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

/** A labelled input with its hint and error below (not part of its accessible name). */
export function Field({
  name,
  id,
  label,
  error,
  hint,
  ...input
}: Labelled & InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  const controlId = id ?? name;
  return (
    <FieldFrame
      id={controlId}
      label={label}
      error={error}
      hint={hint}
      control={(a11y) => <input id={controlId} name={name} {...a11y} {...input} />}
    />
  );
}

/** The same for several lines of text. */
export function TextAreaField({
  name,
  id,
  label,
  error,
  hint,
  ...textarea
}: Labelled & TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> }) {
  const controlId = id ?? name;
  return (
    <FieldFrame
      id={controlId}
      label={label}
      error={error}
      hint={hint}
      control={(a11y) => <textarea id={controlId} name={name} {...a11y} {...textarea} />}
    />
  );
}
