"use client";

import { useTranslations } from "next-intl";
import { ChangePasswordSection } from "./change-password-section.tsx";
import { DeleteAccountSection } from "./delete-account-section.tsx";
import { LanguageSection } from "./language-section.tsx";
import { NotificationsSection } from "./notifications-section.tsx";
import { TwoFactorSection } from "./two-factor-section.tsx";

export function SettingsPage() {
  const t = useTranslations("settings");
  return (
    <section className="settings">
      <h1>{t("title")}</h1>
      <ChangePasswordSection />
      <TwoFactorSection />
      <LanguageSection />
      <NotificationsSection />
      <DeleteAccountSection />
    </section>
  );
}
