"use client";

import type { ReactNode } from "react";
import { useHydrated } from "@/lib/use-hydrated.ts";

/**
 * A form's submit button, disabled until React has hydrated: a form submitted before then would be
 * sent by the browser itself, with its fields (passwords) in the URL. Shows progress while pending.
 */
export function SubmitButton({
  pending,
  disabled,
  label,
  pendingLabel,
  variant = "primary",
}: {
  pending: boolean;
  disabled?: boolean;
  label: ReactNode;
  pendingLabel?: ReactNode;
  variant?: "primary" | "ghost" | "danger";
}) {
  const hydrated = useHydrated();
  return (
    <button
      type="submit"
      className={`btn btn-${variant}`}
      disabled={!hydrated || pending || disabled}
      aria-busy={pending}
    >
      {pending && pendingLabel ? pendingLabel : label}
    </button>
  );
}
