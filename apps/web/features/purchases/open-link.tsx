"use client";

import type { LibraryAccess } from "@salelink/contracts/purchases";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { ApiError } from "@/lib/api.ts";
import { saveLibraryAccess } from "./library-access.ts";
import { openLibraryLink } from "./purchases-api.ts";

/*
 * The link works once: a second POST would answer 404 and the page would say "used" to the very
 * buyer who just opened it. React runs effects twice in development (and a remount runs them
 * again), so the call is kept per token for the life of the page, not per component.
 */
const opening = new Map<string, Promise<LibraryAccess>>();

function openOnce(token: string): Promise<LibraryAccess> {
  let call = opening.get(token);
  if (!call) {
    call = openLibraryLink(token);
    opening.set(token, call);
  }
  return call;
}

type State = "opening" | "dead" | "failed";

/** Spends the e-mailed link, keeps the access for this tab, and goes on to the library. */
export function OpenLink({ token }: { token: string }) {
  const t = useTranslations("purchases");
  const router = useRouter();
  const [state, setState] = useState<State>("opening");

  useEffect(() => {
    let live = true;
    openOnce(token).then(
      (access) => {
        saveLibraryAccess(access);
        // Replace: the spent link's address leaves the history, the back button does not reopen it.
        if (live) router.replace("/purchases/library");
      },
      (err: unknown) => {
        if (!live) return;
        const dead = err instanceof ApiError && (err.status === 404 || err.status === 400);
        setState(dead ? "dead" : "failed");
      },
    );
    return () => {
      live = false;
    };
  }, [token, router]);

  if (state === "opening") return <p aria-busy="true">{t("opening")}</p>;
  return (
    <div className="card notice" role="alert">
      <p>
        <strong>{state === "dead" ? t("deadTitle") : t("openFailedTitle")}</strong>
      </p>
      <p>{state === "dead" ? t("deadText") : t("openFailedText")}</p>
      <Link className="btn btn-primary" href="/purchases">
        {t("getNewLink")}
      </Link>
    </div>
  );
}
