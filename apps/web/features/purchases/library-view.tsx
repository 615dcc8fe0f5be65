"use client";

import type { Library } from "@salelink/contracts/purchases";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import { ApiError } from "@/lib/api.ts";
import { forgetLibraryAccess, readLibraryAccess } from "./library-access.ts";
import { LibraryList } from "./library-list.tsx";
import { readLibrary } from "./purchases-api.ts";

type View =
  | { kind: "loading" }
  | { kind: "expired" }
  | { kind: "failed" }
  | { kind: "ready"; library: Library; accessToken: string };

/**
 * The library opened from the e-mailed link, with the access this tab keeps. Read by hand, not
 * through TanStack Query: the buyer pages never load it (decision 026).
 */
export function LibraryView() {
  const t = useTranslations("purchases");
  const [view, setView] = useState<View>({ kind: "loading" });
  const [round, setRound] = useState(0);

  const expire = useCallback(() => {
    forgetLibraryAccess();
    setView({ kind: "expired" });
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` is the retry button's re-read.
  useEffect(() => {
    const access = readLibraryAccess();
    if (!access) {
      setView({ kind: "expired" });
      return;
    }
    setView({ kind: "loading" });
    const controller = new AbortController();
    readLibrary(access.accessToken, controller.signal).then(
      (library) => setView({ kind: "ready", library, accessToken: access.accessToken }),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        if (err instanceof ApiError && err.status === 401) expire();
        else setView({ kind: "failed" });
      },
    );
    return () => controller.abort();
  }, [round, expire]);

  if (view.kind === "loading") return <p aria-busy="true">{t("loading")}</p>;
  if (view.kind === "expired") {
    return (
      <div className="card notice" role="alert">
        <p>
          <strong>{t("expiredTitle")}</strong>
        </p>
        <p>{t("expiredText")}</p>
        <Link className="btn btn-primary" href="/purchases">
          {t("getNewLink")}
        </Link>
      </div>
    );
  }
  if (view.kind === "failed") {
    return (
      <div role="alert">
        <p className="field-error">{t("loadFailed")}</p>
        <button type="button" className="btn btn-ghost" onClick={() => setRound((r) => r + 1)}>
          {t("retry")}
        </button>
      </div>
    );
  }
  return <LibraryList library={view.library} accessToken={view.accessToken} onExpired={expire} />;
}
