import { redirect } from "next/navigation";
import { pageLocale } from "@/lib/page-locale.ts";

type Props = { params: Promise<{ locale: string }> };

/** The console has one section so far: its home is the payout queue. */
export default async function Page({ params }: Props) {
  await pageLocale(params);
  redirect("/admin/payouts");
}
