"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import { type Wallet, walletSchema } from "@salelink/contracts/wallet";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import { IdentitySection } from "@/features/identity/identity-section.tsx";
import { PayoutsSection } from "@/features/payouts/payouts-section.tsx";
import { api } from "@/lib/api.ts";
import { Balances, HeldSales } from "./balances.tsx";
import { Transactions } from "./transactions.tsx";

/** My wallet: balances per currency, the sales on hold, and every money movement. */
export function WalletPage({ defaultCurrency }: { defaultCurrency: Currency }) {
  const t = useTranslations("wallet");
  const [wallet, setWallet] = useState<Wallet | null>(null);
  const [failed, setFailed] = useState(false);
  const [payoutsVersion, setPayoutsVersion] = useState(0);
  const reloadPayouts = useCallback(() => setPayoutsVersion((v) => v + 1), []);

  const load = useCallback((signal?: AbortSignal) => {
    setFailed(false);
    api("/wallet", { schema: walletSchema, signal })
      .then(setWallet)
      .catch(() => {
        if (!signal?.aborted) setFailed(true);
      });
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  return (
    <section className="wallet">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      {failed ? (
        <div role="alert" className="wallet-error">
          <p className="field-error">{t("loadFailed")}</p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => load()}>
            {t("retry")}
          </button>
        </div>
      ) : wallet === null ? (
        <p aria-busy="true" className="muted loading">
          {t("loading")}
        </p>
      ) : (
        <>
          <Balances wallet={wallet} defaultCurrency={defaultCurrency} />
          <HeldSales wallet={wallet} />
        </>
      )}
      {/* An approval arriving while the page is open reopens the withdrawal: it is read again. */}
      <IdentitySection onApproved={reloadPayouts} />
      {/* A withdrawal moves money out of "available": the balances above are read again. */}
      <PayoutsSection key={payoutsVersion} onChange={() => load()} />
      <Transactions />
    </section>
  );
}
