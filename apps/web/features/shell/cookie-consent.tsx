"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { readConsent, storeConsent } from "./consent.ts";

/** Shown only while no choice is stored (spec section 4). */
export function CookieConsent() {
  const t = useTranslations("consent");
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    setVisible(readConsent() === null);
  }, []);

  // While the banner is open the page can scroll past it, so it never hides a form's buttons.
  useEffect(() => {
    const root = document.documentElement;
    if (visible) root.dataset.consentOpen = "true";
    else delete root.dataset.consentOpen;
    return () => {
      delete root.dataset.consentOpen;
    };
  }, [visible]);

  if (!visible) return null;
  const choose = (accepted: boolean) => {
    storeConsent(accepted);
    setVisible(false);
  };
  return (
    <section className="consent" role="dialog" aria-live="polite" aria-label={t("title")}>
      <p>
        {t("text")} <Link href="/legal/privacy">{t("privacy")}</Link>
      </p>
      <div className="consent-actions">
        <button type="button" className="btn btn-ghost" onClick={() => choose(false)}>
          {t("decline")}
        </button>
        <button type="button" className="btn btn-primary" onClick={() => choose(true)}>
          {t("accept")}
        </button>
      </div>
    </section>
  );
}
