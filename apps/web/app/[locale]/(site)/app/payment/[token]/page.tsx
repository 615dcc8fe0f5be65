import type { Metadata } from "next";
import { CheckoutView, checkoutMetadata } from "@/features/checkout/checkout-view.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/buyer/buyer.css";
import "@/features/checkout/checkout.css";

type Props = {
  params: Promise<{ locale: string; token: string }>;
  searchParams: Promise<{ promo?: string | string[] }>;
};

/** The payment page's /app address (spec section 2). Rendered per request: it reads `?promo=`, and the link is read from Next's tagged cache. */
export async function generateMetadata(props: Props): Promise<Metadata> {
  const locale = await pageLocale(props.params);
  return checkoutMetadata(locale, (await props.params).token);
}

export default async function AppCheckoutPage(props: Props) {
  const locale = await pageLocale(props.params);
  const { token } = await props.params;
  const { promo } = await props.searchParams;
  return (
    <CheckoutView locale={locale} token={token} promo={typeof promo === "string" ? promo : ""} area="app" />
  );
}
