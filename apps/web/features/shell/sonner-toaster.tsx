"use client";

import { useEffect } from "react";
import { Toaster as Sonner, toast } from "sonner";
import { toasterMounted } from "@/lib/toast.ts";
import { useTheme } from "./theme.tsx";

/** Spec section 9: one toast at a time, top right, 3000 ms. */
export const TOAST_DURATION_MS = 3000;

/** Loaded after the page (see lib/toast.ts); announces itself once it listens for toasts. */
export default function SonnerToaster() {
  const { resolved } = useTheme();
  // Effects run children first: Sonner is subscribed to toasts before this one runs.
  useEffect(() => toasterMounted(toast), []);
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
