"use client";

import type { BankAccount } from "@salelink/contracts/payouts";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { ListStates } from "@/components/ui/list-states.tsx";
import { BankAccountForm, type BankFormRequest } from "./bank-account-form.tsx";
import { DeleteBankAccountDialog } from "./delete-bank-account-dialog.tsx";

/** My bank accounts, masked, each deletable after a confirmation, and the form that adds one. */
export function BankAccounts({
  accounts,
  failed,
  onRetry,
  onCreated,
  onDeleted,
  request = null,
}: {
  /** null while loading. */
  accounts: BankAccount[] | null;
  failed: boolean;
  onRetry: () => void;
  onCreated: (account: BankAccount) => void;
  onDeleted: (id: string) => void;
  /** "Add an account in GBP" elsewhere on the page: the form switches to the kind that takes it. */
  request?: BankFormRequest | null;
}) {
  const t = useTranslations("payouts");
  const locale = useLocale();
  const [deleting, setDeleting] = useState<BankAccount | null>(null);
  const countries = new Intl.DisplayNames([locale], { type: "region" });

  return (
    <section id="bank-accounts" className="wallet-section" aria-labelledby="payouts-banks">
      <h2 id="payouts-banks">{t("banksTitle")}</h2>
      <p className="muted">{t("banksIntro")}</p>
      <div className="bank-layout">
        <div>
          <ListStates
            items={accounts}
            failed={failed}
            texts={{
              failed: t("banksLoadFailed"),
              loading: t("banksLoading"),
              empty: t("banksEmpty"),
              emptyHint: t("banksEmptyHint"),
            }}
            action={null}
          >
            {(items) => (
              <ul className="bank-list" aria-labelledby="payouts-banks">
                {items.map((account) => (
                  <li key={account.id} className="card bank-card" aria-label={account.ibanMasked}>
                    <dl className="bank-facts">
                      <div>
                        <dt>{t("holderName")}</dt>
                        <dd>{account.holderName}</dd>
                      </div>
                      <div>
                        <dt>{t(`accountLabels.${account.kind}`)}</dt>
                        <dd className="bank-code">{account.ibanMasked}</dd>
                      </div>
                      <div>
                        <dt>{t("country")}</dt>
                        <dd>{countries.of(account.country) ?? account.country}</dd>
                      </div>
                      <div>
                        <dt>{t("currency")}</dt>
                        <dd>{account.currency}</dd>
                      </div>
                      {account.kind === "iban" && (
                        <div>
                          <dt>{t("bicShort")}</dt>
                          <dd className="bank-code">{account.bic ?? t("noBic")}</dd>
                        </div>
                      )}
                      {account.accountType && (
                        <div>
                          <dt>{t("accountType")}</dt>
                          <dd>{t(`accountTypes.${account.accountType}`)}</dd>
                        </div>
                      )}
                    </dl>
                    <div className="actions">
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm"
                        aria-label={t("deleteNamed", { iban: account.ibanMasked })}
                        onClick={() => setDeleting(account)}
                      >
                        {t("delete")}
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </ListStates>
          {failed && (
            <button type="button" className="btn btn-ghost btn-sm" onClick={onRetry}>
              {t("retry")}
            </button>
          )}
        </div>
        <BankAccountForm onCreated={onCreated} request={request} />
      </div>
      {deleting && (
        <DeleteBankAccountDialog
          key={deleting.id}
          account={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={(id) => {
            setDeleting(null);
            onDeleted(id);
          }}
        />
      )}
    </section>
  );
}
