import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { pageMetadata } from "@/lib/metadata.ts";
import { pageLocale } from "@/lib/page-locale.ts";
import { ClientMessages } from "./client-messages.tsx";

export type PageProps = { params: Promise<{ locale: string }> };
type Texts = { namespace: string; title: string; lead: string; path: string };

/** The form pages' own texts and the bot-check widget's. */
const formNamespaces = ["signup", "password", "verify", "botCheck", "devMail"];

/** Metadata of a narrow form page: title and lead from the messages, kept out of search engines. */
export async function narrowFormMetadata({ params }: PageProps, texts: Texts): Promise<Metadata> {
  const locale = await pageLocale(params);
  const t = await getTranslations({ locale, namespace: texts.namespace });
  return {
    ...pageMetadata({ locale, title: t(texts.title), description: t(texts.lead), path: texts.path }),
    robots: { index: false },
  };
}

/** A narrow page holding one form (sign-in, sign-up, password pages, the dev outbox). */
export async function NarrowFormPage({
  params,
  texts,
  children,
}: PageProps & { texts: Texts; children: ReactNode }) {
  await pageLocale(params);
  const t = await getTranslations(texts.namespace);
  return (
    <main className="container section narrow">
      <h1>{t(texts.title)}</h1>
      <p className="lead">{t(texts.lead)}</p>
      <ClientMessages namespaces={formNamespaces}>{children}</ClientMessages>
    </main>
  );
}
