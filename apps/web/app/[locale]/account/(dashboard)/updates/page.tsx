import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { UpdatesPage } from "@/features/updates/updates-page.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/affiliates/affiliates.css";
import "@/features/updates/updates.css";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "updates" }))("title") };
}

export default async function Page({ params }: Props) {
  await pageLocale(params);
  return (
    // The updates' texts come with their own page, not with every dashboard page.
    <ClientMessages namespaces={["account", "updates"]}>
      <AccountGuard rules={["auth"]}>
        <UpdatesPage />
      </AccountGuard>
    </ClientMessages>
  );
}
