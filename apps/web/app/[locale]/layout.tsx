import { isLocale, locales } from "@salelink/contracts/locales";
import type { Metadata, Viewport } from "next";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import type { ReactNode } from "react";
import { shellNamespaces } from "@/components/ui/client-messages.tsx";
import { consentScript } from "@/features/shell/consent-script.ts";
import { Providers } from "@/features/shell/providers.tsx";
import { themeScript } from "@/features/shell/theme.tsx";
import { zodJitlessScript } from "@/lib/content-security-policy.ts";
import { siteUrl } from "@/lib/metadata.ts";
import "../globals.css";

// No `dynamicParams = false` here: it would close every route below to parameters unknown at build
// time (the buyer pages' tokens). Unknown locales cannot arrive (the rewrites add a known one), and
// pageLocale answers 404 for one anyway; pages with a closed list (blog, legal) close it themselves.
export const generateStaticParams = () => locales.map((locale) => ({ locale }));

export async function generateMetadata({
  params,
}: {
  params: Promise<{ locale: string }>;
}): Promise<Metadata> {
  const { locale } = await params;
  const t = await getTranslations({ locale, namespace: "meta" });
  return {
    metadataBase: new URL(siteUrl),
    title: { default: t("title"), template: "%s · Salelink" },
    description: t("description"),
    applicationName: "Salelink",
    icons: { icon: "/icon.svg" },
  };
}

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#0f1115" },
  ],
};

export default async function RootLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ locale: string }>;
}) {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  const messages = await getMessages();
  const clientMessages = Object.fromEntries(shellNamespaces.map((ns) => [ns, messages[ns]]));
  return (
    <html lang={locale} suppressHydrationWarning>
      <body>
        {/*
          Before any content paints, but in <body>: an inline script in <head> made React report a
          hydration mismatch on about one load in ten, as Next.js streams its own tags into <head>
          (decision 004).
        */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours (decision 015). */}
        <script dangerouslySetInnerHTML={{ __html: zodJitlessScript }} />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours, run before paint. */}
        <script dangerouslySetInnerHTML={{ __html: themeScript }} />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours, run before paint. */}
        <script dangerouslySetInnerHTML={{ __html: consentScript }} />
        <NextIntlClientProvider locale={locale} messages={clientMessages}>
          <Providers>{children}</Providers>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
