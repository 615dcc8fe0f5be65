"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { readConsent, storeConsent } from "./consent.ts";

/** Shown only while no choice is stored (spec section 4). */
export function CookieConsent() {
  const t = useTranslations("consent");
  // Rendered on the server too: CSS shows it while <html data-consent-open>, which consent-script.ts
  // sets before the first paint when no choice is stored.
  const [visible, setVisible] = useState(true);

  useEffect(() => {
    setVisible(readConsent() === null);
  }, []);

  // The attribute also lets the page scroll past the open banner, so it never hides a form's buttons.
  useEffect(() => {
    if (!visible) delete document.documentElement.dataset.consentOpen;
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
