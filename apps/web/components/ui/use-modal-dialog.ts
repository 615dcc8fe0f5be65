"use client";

import { useEffect, useRef } from "react";

/**
 * A `<dialog>` shown as a modal as soon as it mounts, with the focus on its first field (`focus`, a
 * selector; none for a dialog without fields). Escape and the dialog's own close buttons close it.
 */
export function useModalDialog(focus: string | null = "input") {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    if (focus) dialog.querySelector<HTMLElement>(focus)?.focus();
  }, [focus]);
  return ref;
}
