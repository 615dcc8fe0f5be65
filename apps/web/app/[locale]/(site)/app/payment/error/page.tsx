import type { Metadata } from "next";
import { ResultView, resultMetadata } from "@/features/checkout/result-view.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/checkout/checkout.css";

type Props = { params: Promise<{ locale: string }> };

/** Static: the outcome is the paying tab's own, read in the browser (order in the URL, secret in sessionStorage). */
export async function generateMetadata(props: Props): Promise<Metadata> {
  return resultMetadata(await pageLocale(props.params), "error");
}

export default async function AppPaymentErrorPage(props: Props) {
  await pageLocale(props.params);
  return <ResultView area="app" />;
}
