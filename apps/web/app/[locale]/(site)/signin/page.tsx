import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { SignInForm } from "@/features/auth/sign-in-form.tsx";
import { pageMetadata } from "@/lib/metadata.ts";
import { pageLocale } from "@/lib/page-locale.ts";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const locale = await pageLocale(params);
  const t = await getTranslations({ locale, namespace: "auth" });
  return {
    ...pageMetadata({ locale, title: t("signInTitle"), description: t("signInLead"), path: "/signin" }),
    robots: { index: false },
  };
}

export default async function SignInPage({ params }: Props) {
  await pageLocale(params);
  const t = await getTranslations("auth");
  return (
    <main className="container section narrow">
      <h1>{t("signInTitle")}</h1>
      <p className="lead">{t("signInLead")}</p>
      <SignInForm />
    </main>
  );
}
