"use client";

import dynamic from "next/dynamic";

/**
 * Loaded after the page, and loads sonner only with the first toast (toaster-gate.tsx): no page's
 * first load carries either (decision 009's budget), and pages that never toast never evaluate sonner.
 */
export const Toaster = dynamic(() => import("./toaster-gate.tsx"), { ssr: false });
