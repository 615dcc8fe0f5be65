import type { Metadata } from "next";
import { OrderView, orderMetadata } from "@/features/checkout/order-view.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/buyer/buyer.css";
import "@/features/checkout/checkout.css";

type Props = { params: Promise<{ locale: string; token: string }> };

/** The order view's /app address (spec section 2). Never cached: the file URLs in it are signed for a few minutes. */
export const dynamic = "force-dynamic";

export async function generateMetadata(props: Props): Promise<Metadata> {
  return orderMetadata(await pageLocale(props.params));
}

export default async function AppOrderPage(props: Props) {
  const locale = await pageLocale(props.params);
  return <OrderView locale={locale} token={(await props.params).token} area="app" />;
}
