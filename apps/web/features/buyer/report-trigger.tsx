"use client";

import { type ComponentType, type ReactNode, useState } from "react";
import type { ReportDialogProps } from "@/features/checkout/report-dialog.tsx";

/**
 * The link page's report button. The page has almost no JavaScript budget left (decision 009): the
 * dialog's code comes by dynamic import on the first click, then replaces this button, open.
 */
export function ReportTrigger({ token, children }: { token: string; children: ReactNode }) {
  const [Dialog, setDialog] = useState<ComponentType<ReportDialogProps>>();
  return Dialog ? (
    <Dialog token={token} kind="link" />
  ) : (
    <button
      type="button"
      className="btn btn-ghost"
      onClick={() =>
        import("@/features/checkout/report-dialog.tsx").then((m) => setDialog(() => m.ReportDialog))
      }
    >
      {children}
    </button>
  );
}
