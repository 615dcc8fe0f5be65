"use client";

import dynamic from "next/dynamic";

/** The toaster, loaded once the page is interactive: sonner stays out of every page's first load. */
export const Toaster = dynamic(() => import("./sonner-toaster.tsx"), { ssr: false });
