"use client";

import type { QuoteResponse } from "@salelink/contracts/catalogue";
import type { CheckoutResponse, CheckoutVat } from "@salelink/contracts/checkout";
import type { IsoCountryCode } from "@salelink/contracts/iso-countries";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, lazy, type ReactNode, Suspense, useEffect, useRef, useState } from "react";
import { Field, TextAreaField } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { fetchQuote } from "@/features/buyer/quote.ts";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { runtimeConfig } from "@/lib/runtime-config.ts";
import { type BuyerArea, resultPathIn } from "./paths.ts";
import { releaseCheckout, rememberCheckout } from "./session.ts";
import { countryFromLanguages, vatLine } from "./vat.ts";

// The card forms (and the contracts' zod they validate with) load once a checkout exists.
const SandboxPayment = lazy(() =>
  import("./sandbox-payment.tsx").then((m) => ({ default: m.SandboxPayment })),
);
const StripePayment = lazy(() => import("./stripe-payment.tsx").then((m) => ({ default: m.StripePayment })));

const loadCheckoutContract = () => import("@salelink/contracts/checkout");

type StartErrors = {
  email?: string;
  promoCode?: string;
  billingCountry?: string;
  vatNumber?: string;
  companyName?: string;
  companyAddress?: string;
  form?: string;
};
type StartField = Exclude<keyof StartErrors, "form">;

/** The checkout request's paths (the contract's and the API's 400 `errors`) → the field showing them. */
const fieldOfPath: Record<string, StartField> = {
  email: "email",
  promoCode: "promoCode",
  billingCountry: "billingCountry",
  business: "vatNumber",
  "business.vatNumber": "vatNumber",
  "business.name": "companyName",
  "business.address": "companyAddress",
};

/**
 * The payment page's island. Step 1: the buyer's e-mail and the promo code (from `?promo=`,
 * re-checked here) with the total; "Continue" starts the checkout (POST /stripe/checkout). Step 2:
 * the provider's card form, for the total the API computed. "Change" next to the e-mail cancels the
 * checkout (its reservation given back) and returns to step 1: the next "Continue" starts a new one
 * for the new address, through every check of a first checkout. Step 1 also asks the buyer's country
 * and, for a business, its VAT number and invoice details (issue 22): the API answers the VAT with
 * the total, shown as a line of the summary.
 */
export function CheckoutForm({
  token,
  priceMinor,
  currency,
  pricesIncludeVat,
  countries,
  creatorName,
  initialPromo,
  area,
  product,
}: {
  token: string;
  priceMinor: number;
  currency: string;
  pricesIncludeVat: boolean;
  /** Every country, named and sorted in the page's language. */
  countries: { code: IsoCountryCode; name: string }[];
  creatorName: string;
  initialPromo: string;
  area: BuyerArea;
  product: ReactNode;
}) {
  const t = useTranslations("checkout");
  const locale = useLocale();
  const router = useRouter();
  const [email, setEmail] = useState("");
  const [code, setCode] = useState(initialPromo);
  const [quote, setQuote] = useState<QuoteResponse | null>(null);
  const [quoting, setQuoting] = useState(false);
  const [country, setCountry] = useState("");
  const [business, setBusiness] = useState(false);
  const [vatNumber, setVatNumber] = useState("");
  const [companyName, setCompanyName] = useState("");
  const [companyAddress, setCompanyAddress] = useState("");
  const [errors, setErrors] = useState<StartErrors>({});
  const [starting, setStarting] = useState(false);
  const [session, setSession] = useState<CheckoutResponse | null>(null);
  /** What the payment charges once the card's country changed the VAT (Stripe), for this session. */
  const [charged, setCharged] = useState<{ orderId: string; total: number; vat: CheckoutVat } | null>(null);
  const [changing, setChanging] = useState(false);
  const [changeError, setChangeError] = useState<string>();
  /** Set by "Change": the e-mail field takes the focus once the form is back. */
  const focusEmail = useRef(false);
  const checkedInitial = useRef(false);
  /** Set once the card form is sent: from then on, leaving the page must not cancel the checkout. */
  const paying = useRef(false);
  const pendingRelease = useRef<ReturnType<typeof setTimeout>>(undefined);

  // Leaving the page (closing it, the back button, a link) gives the reservation back at once.
  useEffect(() => {
    if (!session) return;
    clearTimeout(pendingRelease.current);
    let apiUrl: string | null = null;
    void runtimeConfig()
      .then((config) => {
        apiUrl = config.apiUrl;
      })
      .catch(() => undefined);
    const leave = () => {
      if (!paying.current && apiUrl) releaseCheckout(apiUrl, session);
    };
    window.addEventListener("pagehide", leave);
    return () => {
      window.removeEventListener("pagehide", leave);
      // Deferred: React's development double mount runs this cleanup and mounts again at once.
      pendingRelease.current = setTimeout(leave, 0);
    };
  }, [session]);

  // The browser's language region is the likeliest country ("fr-FR" → France); without one, the buyer chooses.
  useEffect(() => {
    const found = countryFromLanguages(
      navigator.languages?.length ? navigator.languages : [navigator.language],
    );
    if (found) setCountry((chosen) => chosen || found);
  }, []);

  useEffect(() => {
    if (session || !focusEmail.current) return;
    focusEmail.current = false;
    document.getElementById("email")?.focus();
  }, [session]);

  const applied = quote?.promoCode ?? null;
  const countryName = (code: string) => countries.find((c) => c.code === code)?.name ?? code;
  const money = (minor: number) =>
    formatMoney(minor, session?.currency ?? quote?.currency ?? currency, locale);
  const current = session && charged?.orderId === session.orderId ? charged : session;
  const total = current?.total ?? quote?.total ?? priceMinor;
  const vat = current ? vatLine(current.vat, t, money, locale) : null;

  async function checkCode(promoCode: string) {
    setErrors((e) => ({ ...e, promoCode: undefined }));
    setQuoting(true);
    try {
      const answer = await fetchQuote(token, promoCode);
      if (answer.promoCode) {
        setQuote(answer);
        setCode(answer.promoCode.code);
      } else {
        setQuote(null);
        setErrors((e) => ({ ...e, promoCode: t("promoInvalid") }));
      }
    } catch (err) {
      setQuote(null);
      setErrors((e) => ({
        ...e,
        promoCode:
          err instanceof ApiError && (err.status === 400 || err.status === 429) && err.body
            ? err.body.message
            : t("promoFailed"),
      }));
    } finally {
      setQuoting(false);
    }
  }

  // The code carried from the purchase view is checked again: it may have expired or been used up.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the code in the URL.
  useEffect(() => {
    if (checkedInitial.current || !initialPromo.trim()) return;
    checkedInitial.current = true;
    void checkCode(initialPromo.trim());
  }, []);

  function onApply() {
    const promoCode = code.trim();
    if (!promoCode) {
      setErrors((e) => ({ ...e, promoCode: t("promoRequired") }));
      return;
    }
    void checkCode(promoCode);
  }

  function removeCode() {
    setQuote(null);
    setCode("");
    setErrors((e) => ({ ...e, promoCode: undefined }));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const promoCode = applied?.code ?? code.trim();
    const { checkoutBodySchema } = await loadCheckoutContract().catch(() => ({ checkoutBodySchema: null }));
    // The partner codes followed (`?via=`), newest first: the API applies each programme's window.
    // Read at submit time, like the contract: the payment page's first load stays as it was.
    const via = await import("@/lib/partner-via.ts").then((m) => m.readPartnerVia()).catch(() => []);
    const address = companyAddress.trim();
    const body = {
      token,
      email,
      locale,
      ...(promoCode ? { promoCode } : {}),
      ...(via.length > 0 ? { via } : {}),
      ...(country ? { billingCountry: country.toUpperCase() } : {}),
      ...(business ? { business: { vatNumber, name: companyName, ...(address ? { address } : {}) } } : {}),
    };
    const parsed = checkoutBodySchema?.safeParse(body);
    // The API asks the country only when VAT is added to the price; this form always does.
    const next: StartErrors = country ? {} : { billingCountry: t("countryRequired") };
    for (const issue of parsed?.success === false ? parsed.error.issues : []) {
      const field = fieldOfPath[issue.path.slice(0, 2).join(".")] ?? fieldOfPath[String(issue.path[0])];
      if (field) next[field] ??= t(fieldMessage[field]);
      else next.form = t("startFailed");
    }
    if (Object.keys(next).length > 0) {
      setErrors(next);
      return;
    }
    setErrors({});
    setStarting(true);
    try {
      const answer = await api("/stripe/checkout", {
        method: "POST",
        body: parsed?.data ?? body,
        schema: () => loadCheckoutContract().then((m) => m.checkoutResponseSchema),
      });
      rememberCheckout({ orderId: answer.orderId, checkoutSecret: answer.checkoutSecret });
      paying.current = false;
      setSession(answer);
    } catch (err) {
      setErrors(startErrors(err, t));
    } finally {
      setStarting(false);
    }
  }

  /**
   * Back to step 1 with the e-mail editable. The checkout is cancelled first and the form comes back
   * only once the API says it is (a unit of a limited stock is then free for the new checkout); a
   * checkout that was paid meanwhile cannot change, and the buyer is shown its outcome instead.
   */
  async function changeEmail() {
    if (!session || changing) return;
    setChangeError(undefined);
    setChanging(true);
    try {
      const { status } = await api(
        `/checkout/${encodeURIComponent(session.orderId)}/cancel?secret=${encodeURIComponent(session.checkoutSecret)}`,
        {
          method: "POST",
          schema: () => loadCheckoutContract().then((m) => m.checkoutCancelResponseSchema),
        },
      );
      // Cancelled already: leaving the form must not send the page's own release as well.
      paying.current = true;
      if (status !== "failed") {
        router.push(resultPathIn(area, "success", session.orderId));
        return;
      }
      focusEmail.current = true;
      setSession(null);
    } catch {
      setChangeError(t("changeFailed"));
    } finally {
      setChanging(false);
    }
  }

  return (
    <div className="checkout-grid">
      <div className="card checkout-main">
        <section aria-labelledby="checkout-step-details" className="checkout-step">
          <h2 id="checkout-step-details" className="checkout-step-title">
            <span className="checkout-step-number" aria-hidden="true">
              1
            </span>
            {t("stepDetails")}
          </h2>
          {session ? (
            <>
              <p className="checkout-contact">
                <span className="muted">{t("receiptTo")}</span> <strong>{email.trim()}</strong>{" "}
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() => void changeEmail()}
                  disabled={changing}
                  aria-busy={changing}
                  aria-label={t("changeEmailLabel")}
                >
                  {t("changeEmail")}
                </button>
              </p>
              <p className="checkout-contact">
                <span className="muted">{t("countryLabel")}</span> <strong>{countryName(country)}</strong>
              </p>
              {business && (
                <p className="checkout-contact">
                  {t("businessSummary", { name: companyName.trim(), vatNumber: vatNumber.trim() })}
                </p>
              )}
              {changeError && (
                <p className="checkout-alert" role="alert">
                  {changeError}
                </p>
              )}
            </>
          ) : (
            <form className="form checkout-details" onSubmit={onSubmit} noValidate>
              <Field
                name="email"
                type="email"
                label={t("emailLabel")}
                hint={t("emailHint")}
                autoComplete="email"
                inputMode="email"
                required
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                error={errors.email}
              />
              <div className="field">
                <label htmlFor="billingCountry">{t("countryLabel")}</label>
                <select
                  id="billingCountry"
                  name="billingCountry"
                  autoComplete="country"
                  required
                  value={country}
                  onChange={(e) => setCountry(e.currentTarget.value)}
                  aria-invalid={Boolean(errors.billingCountry)}
                  aria-describedby={
                    errors.billingCountry ? "billingCountry-hint billingCountry-error" : "billingCountry-hint"
                  }
                >
                  <option value="" disabled>
                    {t("countryChoose")}
                  </option>
                  {countries.map((c) => (
                    <option key={c.code} value={c.code}>
                      {c.name}
                    </option>
                  ))}
                </select>
                <small id="billingCountry-hint" className="muted">
                  {t("countryHint")}
                </small>
                {errors.billingCountry && (
                  <small id="billingCountry-error" className="field-error">
                    {errors.billingCountry}
                  </small>
                )}
              </div>
              <label className="checkbox">
                <input
                  type="checkbox"
                  name="business"
                  checked={business}
                  onChange={(e) => setBusiness(e.currentTarget.checked)}
                  aria-controls="checkout-business"
                />
                <span>{t("businessToggle")}</span>
              </label>
              {business && (
                <div id="checkout-business" className="checkout-business">
                  <Field
                    name="vatNumber"
                    label={t("vatNumberLabel")}
                    hint={t("vatNumberHint")}
                    autoComplete="off"
                    autoCapitalize="characters"
                    spellCheck={false}
                    maxLength={32}
                    required
                    value={vatNumber}
                    onChange={(e) => setVatNumber(e.currentTarget.value)}
                    error={errors.vatNumber}
                  />
                  <Field
                    name="companyName"
                    label={t("companyLabel")}
                    autoComplete="organization"
                    maxLength={200}
                    required
                    value={companyName}
                    onChange={(e) => setCompanyName(e.currentTarget.value)}
                    error={errors.companyName}
                  />
                  <TextAreaField
                    name="companyAddress"
                    label={t("addressLabel")}
                    autoComplete="street-address"
                    rows={2}
                    maxLength={500}
                    value={companyAddress}
                    onChange={(e) => setCompanyAddress(e.currentTarget.value)}
                    error={errors.companyAddress}
                  />
                </div>
              )}
              {applied ? (
                <div className="checkout-promo-applied">
                  <span>{t("promoApplied", { code: applied.code })}</span>
                  <button type="button" className="btn btn-ghost btn-sm" onClick={removeCode}>
                    {t("promoRemove")}
                  </button>
                </div>
              ) : (
                <div className="checkout-promo">
                  <Field
                    name="promoCode"
                    label={t("promoLabel")}
                    autoComplete="off"
                    autoCapitalize="characters"
                    spellCheck={false}
                    maxLength={64}
                    value={code}
                    onChange={(e) => setCode(e.currentTarget.value)}
                    error={errors.promoCode}
                  />
                  <button
                    type="button"
                    className="btn btn-ghost"
                    onClick={onApply}
                    disabled={quoting || starting}
                    aria-busy={quoting}
                  >
                    {quoting ? t("promoApplying") : t("promoApply")}
                  </button>
                </div>
              )}
              {errors.form && (
                <p className="checkout-alert" role="alert">
                  {errors.form}
                </p>
              )}
              <SubmitButton
                pending={starting}
                disabled={quoting}
                label={t("continue")}
                pendingLabel={t("starting")}
              />
            </form>
          )}
        </section>

        <section
          aria-labelledby="checkout-step-payment"
          className="checkout-step"
          onSubmitCapture={() => {
            paying.current = true;
          }}
        >
          <h2
            id="checkout-step-payment"
            className={`checkout-step-title${session ? "" : " checkout-step-waiting"}`}
          >
            <span className="checkout-step-number" aria-hidden="true">
              2
            </span>
            {t("stepPayment")}
          </h2>
          {session && (
            <Suspense fallback={<p className="muted">{t("loadingForm")}</p>}>
              {session.provider === "sandbox" ? (
                <SandboxPayment session={session} area={area} creatorName={creatorName} />
              ) : (
                <StripePayment
                  session={session}
                  area={area}
                  email={email.trim()}
                  onCharged={(next) => setCharged({ orderId: session.orderId, ...next })}
                />
              )}
            </Suspense>
          )}
        </section>
      </div>

      <aside className="card checkout-summary" aria-label={t("summary")}>
        {product}
        <dl className="checkout-lines">
          <div>
            <dt>{t("price")}</dt>
            <dd>{money(quote?.price ?? priceMinor)}</dd>
          </div>
          {applied && quote && quote.discount > 0 && (
            <div>
              <dt>{t("discount", { code: applied.code })}</dt>
              <dd>−{money(quote.discount)}</dd>
            </div>
          )}
          {vat && (
            <div data-testid="checkout-vat">
              <dt>{vat.label}</dt>
              {vat.amount && <dd>{vat.amount}</dd>}
            </div>
          )}
          <div className="checkout-total" aria-live="polite">
            <dt>{t("total")}</dt>
            <dd data-testid="checkout-total">{money(total)}</dd>
          </div>
        </dl>
        {!session && (
          <p className="checkout-vat-note muted" data-testid="checkout-vat-note">
            {pricesIncludeVat ? t("vatIncludedNote") : t("vatAddedNote")}
          </p>
        )}
        <p className="checkout-secure muted">
          <svg
            width="16"
            height="16"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            aria-hidden="true"
          >
            <rect x="5" y="11" width="14" height="10" rx="2" />
            <path d="M8 11V7a4 4 0 0 1 8 0v4" />
          </svg>
          {t("secure")}
        </p>
      </aside>
    </div>
  );
}

type T = ReturnType<typeof useTranslations>;

/** What the form says of a field the contract refused, before anything is sent. */
const fieldMessage = {
  email: "emailInvalid",
  promoCode: "promoInvalid",
  billingCountry: "countryRequired",
  vatNumber: "vatNumberInvalid",
  companyName: "companyRequired",
  companyAddress: "addressInvalid",
} as const satisfies Record<StartField, string>;

/** The API's refusals of a checkout, on the field they concern or above the button. */
function startErrors(err: unknown, t: T): StartErrors {
  if (!(err instanceof ApiError)) return { form: t("startFailed") };
  if (err.status === 404) return { form: t("linkGone") };
  if (err.status === 400 || err.status === 429) {
    // The API's own words, in the page's language (a VAT number VIES does not know, a country missing).
    const shown: StartErrors = {};
    for (const [path, messages] of Object.entries(err.body?.errors ?? {})) {
      const field = fieldOfPath[path];
      if (field && messages[0]) shown[field] ??= messages[0];
    }
    if (Object.keys(shown).length > 0) return shown;
  }
  // 409 (not on sale, sold out, all reserved for N minutes), 429 (too many checkouts), 502 (provider
  // unavailable): the API's message, in the page's language.
  return { form: err.body?.message ?? t("startFailed") };
}
