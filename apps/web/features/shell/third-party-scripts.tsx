"use client";

import { useEffect } from "react";
import { runtimeConfig } from "@/lib/runtime-config.ts";
import { CONSENT_EVENT, readConsent } from "./consent.ts";

const loaded = new Set<string>();

function injectScript(src: string, id: string): void {
  if (loaded.has(id) || document.getElementById(id)) return;
  loaded.add(id);
  const script = document.createElement("script");
  script.id = id;
  script.src = src;
  script.async = true;
  document.head.appendChild(script);
}

/**
 * The analytics tag loads once, and only when consent is stored as "true" or the accepted event
 * fires (spec section 4); nothing loads when no analytics id is configured.
 */
export function Analytics() {
  useEffect(() => {
    let cancelled = false;
    const load = async () => {
      const cfg = await runtimeConfig().catch(() => null);
      if (cancelled || !cfg?.analyticsSrc || !cfg.analyticsId) return;
      const w = window as typeof window & { dataLayer?: unknown[]; gtag?: (...args: unknown[]) => void };
      w.dataLayer = w.dataLayer ?? [];
      w.gtag = (...args: unknown[]) => w.dataLayer?.push(args);
      w.gtag("js", new Date());
      w.gtag("config", cfg.analyticsId, { anonymize_ip: true });
      injectScript(cfg.analyticsSrc, "analytics-tag");
    };
    if (readConsent() === "true") void load();
    const onAccepted = () => void load();
    window.addEventListener(CONSENT_EVENT, onAccepted, { once: true });
    return () => {
      cancelled = true;
      window.removeEventListener(CONSENT_EVENT, onAccepted);
    };
  }, []);
  return null;
}

/** The chat widget's provider script, loaded only when one is configured. */
export function ChatWidget() {
  useEffect(() => {
    runtimeConfig()
      .then((cfg) => {
        if (cfg.chatWidgetSrc) injectScript(cfg.chatWidgetSrc, "chat-widget");
      })
      .catch(() => undefined);
  }, []);
  return null;
}
