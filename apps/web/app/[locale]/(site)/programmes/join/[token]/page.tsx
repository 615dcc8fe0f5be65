import { emailedTokenSchema } from "@salelink/contracts/auth";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import { JoinInvitation } from "@/features/partners/join-invitation.tsx";
import { pageLocale } from "@/lib/page-locale.ts";

type Props = { params: Promise<{ locale: string; token: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const locale = await pageLocale(params);
  const t = await getTranslations({ locale, namespace: "partners.join" });
  // A capability in the address: never indexed, never followed.
  return { title: t("title"), robots: { index: false, follow: false } };
}

/** The invitation e-mail's link (decision 034): `{WEB_ORIGIN}/programmes/join/{token}`. */
export default async function Page({ params }: Props) {
  const locale = await pageLocale(params);
  const { token } = await params;
  const t = await getTranslations({ locale, namespace: "partners.join" });
  return (
    <main className="container section narrow">
      <h1>{t("title")}</h1>
      <p className="lead">{t("lead")}</p>
      <ClientMessages namespaces={["partners"]}>
        <JoinInvitation token={token} malformed={!emailedTokenSchema.safeParse(token).success} />
      </ClientMessages>
    </main>
  );
}
