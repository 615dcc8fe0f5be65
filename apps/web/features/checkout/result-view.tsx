import type { Locale } from "@salelink/contracts/locales";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import type { BuyerArea } from "./paths.ts";
import { PaymentResult } from "./payment-result.tsx";

export async function resultMetadata(locale: Locale, outcome: "success" | "error"): Promise<Metadata> {
  const t = await getTranslations({ locale, namespace: "checkout" });
  return {
    title: outcome === "success" ? t("successTitle") : t("errorTitle"),
    robots: { index: false, follow: false },
  };
}

/**
 * /payment/success and /payment/error (and their /app twins): static pages whose content is the
 * tab's own checkout, read in the browser. The server sends the "checking" state.
 */
export async function ResultView({ area }: { area: BuyerArea }) {
  const t = await getTranslations("checkout");
  return (
    <main className="container payment-result-page">
      <ClientMessages namespaces={["checkout"]}>
        <Suspense
          fallback={
            <div className="card payment-result" aria-busy="true">
              <span className="checkout-spinner checkout-spinner-lg" aria-hidden="true" />
              <h1>{t("checking")}</h1>
              <p className="muted">{t("checkingText")}</p>
            </div>
          }
        >
          <PaymentResult area={area} />
        </Suspense>
      </ClientMessages>
    </main>
  );
}
