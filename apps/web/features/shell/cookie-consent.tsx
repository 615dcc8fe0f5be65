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
