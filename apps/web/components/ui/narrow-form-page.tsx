import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import type { ComponentType } from "react";
import { pageMetadata } from "@/lib/metadata.ts";
import { pageLocale } from "@/lib/page-locale.ts";

type Props = { params: Promise<{ locale: string }> };

/**
 * A narrow page holding one form (sign-in, sign-up, password pages): title and lead from the
 * messages, kept out of search engines.
 */
export function narrowFormPage(options: {
  namespace: string;
  title: string;
  lead: string;
  path: string;
  Form: ComponentType;
}) {
  const { namespace, title, lead, path, Form } = options;
  async function generateMetadata({ params }: Props): Promise<Metadata> {
    const locale = await pageLocale(params);
    const t = await getTranslations({ locale, namespace });
    return {
      ...pageMetadata({ locale, title: t(title), description: t(lead), path }),
      robots: { index: false },
    };
  }
  async function Page({ params }: Props) {
    await pageLocale(params);
    const t = await getTranslations(namespace);
    return (
      <main className="container section narrow">
        <h1>{t(title)}</h1>
        <p className="lead">{t(lead)}</p>
        <Form />
      </main>
    );
  }
  return { generateMetadata, Page };
}
