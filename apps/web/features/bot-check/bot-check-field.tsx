"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { type RuntimeConfig, runtimeConfig } from "@/lib/runtime-config.ts";

type TurnstileApi = {
  render(
    el: HTMLElement,
    options: { sitekey: string; callback(token: string): void; "expired-callback"(): void },
  ): string;
  reset(id: string): void;
};
declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

const SANDBOX_TOKEN = "sandbox-pass";
const TURNSTILE_SRC = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";

/**
 * The bot check carried by sign-up and password forms (spec section 5: turnstileToken). With
 * Turnstile configured it renders Cloudflare's widget; in the sandbox it says so on screen and
 * passes a token the sandbox verifier accepts.
 */
export function BotCheckField({ onToken }: { onToken(token: string | null): void }) {
  const t = useTranslations("botCheck");
  const [config, setConfig] = useState<RuntimeConfig["botCheck"] | null>(null);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    runtimeConfig()
      .then((c) => setConfig(c.botCheck))
      .catch(() => setConfig({ kind: "sandbox", siteKey: null }));
  }, []);

  useEffect(() => {
    if (!config) return;
    if (config.kind === "sandbox" || !config.siteKey) {
      onToken(SANDBOX_TOKEN);
      return;
    }
    const siteKey = config.siteKey;
    const render = () => {
      if (box.current && window.turnstile) {
        window.turnstile.render(box.current, {
          sitekey: siteKey,
          callback: (token) => onToken(token),
          "expired-callback": () => onToken(null),
        });
      }
    };
    if (window.turnstile) render();
    else {
      const script = document.createElement("script");
      script.src = TURNSTILE_SRC;
      script.async = true;
      script.onload = render;
      document.head.appendChild(script);
    }
  }, [config, onToken]);

  if (!config) return <p className="muted bot-check">{t("loading")}</p>;
  if (config.kind === "sandbox") {
    return (
      <p className="sandbox-note bot-check" data-testid="bot-check-sandbox">
        {t("sandbox")}
      </p>
    );
  }
  return <div ref={box} className="bot-check" />;
}
