"use client";

import { useEffect } from "react";

const KEY = "chunk-reload-at";
/** Spec section 9: route-reload protection expires after 10 s. */
const RELOAD_PROTECTION_MS = 10_000;

const isChunkError = (reason: unknown) => {
  const text = reason instanceof Error ? `${reason.name} ${reason.message}` : String(reason ?? "");
  return /ChunkLoadError|Loading chunk [\w-]+ failed|Failed to fetch dynamically imported module|Loading CSS chunk/i.test(
    text,
  );
};

/** After a deployment, old pages may ask for chunks that are gone: reload once, not in a loop. */
export function ChunkReloadGuard() {
  useEffect(() => {
    const reload = (reason: unknown) => {
      if (!isChunkError(reason)) return;
      const last = Number(sessionStorage.getItem(KEY) ?? 0);
      if (Date.now() - last < RELOAD_PROTECTION_MS) return;
      sessionStorage.setItem(KEY, String(Date.now()));
      window.location.reload();
    };
    const onError = (event: ErrorEvent) => reload(event.error ?? event.message);
    const onRejection = (event: PromiseRejectionEvent) => reload(event.reason);
    window.addEventListener("error", onError);
    window.addEventListener("unhandledrejection", onRejection);
    return () => {
      window.removeEventListener("error", onError);
      window.removeEventListener("unhandledrejection", onRejection);
    };
  }, []);
  return null;
}
