"use client";

import type { AdminAccountDetail } from "@salelink/contracts/admin-accounts";
import { useLocale, useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { formatMoney } from "@/lib/money.ts";
import { formatDate } from "./admin-format.ts";

/** A titled part of the account page, or a line saying there is nothing in it. */
function Part({ title, empty, children }: { title: string; empty: string | null; children: ReactNode }) {
  const id = `part-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <section className="card admin-part" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {empty === null ? children : <p className="muted">{empty}</p>}
    </section>
  );
}

/** Everything the console knows about an account: profile, checks, money, links, orders, payouts, audit. */
export function AccountFacts({ account }: { account: AdminAccountDetail }) {
  const t = useTranslations("adminOps.account");
  const all = useTranslations("adminOps");
  const locale = useLocale();
  const date = (iso: string | null) => (iso ? formatDate(iso, locale) : "—");
  const onboarding = account.onboarding;

  return (
    <div className="admin-parts">
      <Part title={t("profile")} empty={null}>
        <dl className="admin-facts">
          <div>
            <dt>{t("role")}</dt>
            <dd>{all(`role.${account.role}`)}</dd>
          </div>
          <div>
            <dt>{t("joinedOn")}</dt>
            <dd>{date(account.createdAt)}</dd>
          </div>
          <div>
            <dt>{t("emailVerified")}</dt>
            <dd>{account.emailVerified ? t("yes") : t("no")}</dd>
          </div>
          <div>
            <dt>{t("referredBy")}</dt>
            <dd>{account.referredBy?.name ?? "—"}</dd>
          </div>
        </dl>
      </Part>
      <Part title={t("onboarding")} empty={onboarding ? null : t("noOnboarding")}>
        {onboarding && (
          <dl className="admin-facts">
            <div>
              <dt>{t("kind")}</dt>
              <dd>{all(`kind.${onboarding.kind}`)}</dd>
            </div>
            {onboarding.companyName && (
              <div>
                <dt>{t("company")}</dt>
                <dd>{onboarding.companyName}</dd>
              </div>
            )}
            {(onboarding.firstName || onboarding.lastName) && (
              <div>
                <dt>{t("name")}</dt>
                <dd>{[onboarding.firstName, onboarding.lastName].filter(Boolean).join(" ")}</dd>
              </div>
            )}
            <div>
              <dt>{t("country")}</dt>
              <dd>{onboarding.country}</dd>
            </div>
          </dl>
        )}
      </Part>
      <Part title={t("identity")} empty={account.identitySessions.length ? null : t("noIdentity")}>
        <ul className="admin-rows">
          {account.identitySessions.map((s) => (
            <li key={s.id}>
              <strong>{all(`identityStatus.${s.status}`)}</strong>
              <span className="muted">
                {" · "}
                {all(`provider.${s.provider}`)} · {date(s.createdAt)}
                {s.decidedAt && ` → ${date(s.decidedAt)}`}
              </span>
              {s.reason && <span className="admin-reason"> — {s.reason}</span>}
            </li>
          ))}
        </ul>
      </Part>
      <Part title={t("balances")} empty={account.balances.length ? null : t("noBalances")}>
        <dl className="admin-facts">
          {account.balances.map((b) => (
            <div key={`${b.account}-${b.currency}`}>
              <dt>
                {all(`ledger.${b.account}`)} ({b.currency})
              </dt>
              <dd className="admin-money">{formatMoney(b.amount, b.currency, locale)}</dd>
            </div>
          ))}
        </dl>
      </Part>
      <Part title={t("links")} empty={account.links.length ? null : t("noLinks")}>
        <ul className="admin-rows">
          {account.links.map((l) => (
            <li key={l.id}>
              <strong>{l.title}</strong>
              <span className="muted">
                {" · "}
                {formatMoney(l.priceMinor, l.currency, locale)} · {all(`linkStatus.${l.status}`)}
                {l.deleted && ` · ${t("deleted")}`} · {t("sales", { count: l.salesCount })}
              </span>
            </li>
          ))}
        </ul>
      </Part>
      <Part title={t("orders")} empty={account.orders.length ? null : t("noOrders")}>
        <ul className="admin-rows">
          {account.orders.map((o) => (
            <li key={o.id}>
              <strong className="admin-money">{formatMoney(o.totalMinor, o.currency, locale)}</strong>
              <span className="muted">
                {" · "}
                {all(`orderStatus.${o.status}`)} · {o.buyer} · {date(o.paidAt)}
              </span>
            </li>
          ))}
        </ul>
      </Part>
      <Part title={t("payouts")} empty={account.payouts.length ? null : t("noPayouts")}>
        <ul className="admin-rows">
          {account.payouts.map((p) => (
            <li key={p.id}>
              <strong className="admin-money">{formatMoney(p.amountMinor, p.currency, locale)}</strong>
              <span className="muted">
                {" · "}
                {all(`payoutStatus.${p.status}`)} · {date(p.requestedAt)}
              </span>
            </li>
          ))}
        </ul>
      </Part>
      <Part title={t("audit")} empty={account.audit.length ? null : t("noAudit")}>
        <ul className="admin-rows" aria-label={t("audit")}>
          {account.audit.map((a) => (
            <li key={a.id}>
              <strong>{all(`auditAction.${a.action}`)}</strong>
              <span className="muted">
                {" · "}
                {t("by", { email: a.actor.email })} · {date(a.createdAt)}
              </span>
              <span className="admin-reason"> — {a.reason}</span>
            </li>
          ))}
        </ul>
      </Part>
    </div>
  );
}
