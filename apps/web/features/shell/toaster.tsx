"use client";

import { Toaster as Sonner } from "sonner";
import { useTheme } from "./theme.tsx";

/** Spec section 9: one toast at a time, top right, 3000 ms. */
export const TOAST_DURATION_MS = 3000;

export function Toaster() {
  const { resolved } = useTheme();
  return (
    <Sonner
      position="top-right"
      visibleToasts={1}
      duration={TOAST_DURATION_MS}
      theme={resolved}
      richColors
      closeButton
    />
  );
}
