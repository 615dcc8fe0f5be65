"use client";

import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import { whenToastWanted } from "@/lib/toast.ts";

const SonnerToaster = dynamic(() => import("./sonner-toaster.tsx"), { ssr: false });

/**
 * Mounts (and so loads) sonner's toaster with the first toast. Evaluating sonner was a long task on
 * a phone in Lighthouse, and most visits of a buyer page never show a toast.
 */
export default function ToasterGate() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => whenToastWanted(setWanted), []);
  return wanted && <SonnerToaster />;
}
