"use client";

import type { InvitationPreview, MembershipResult } from "@salelink/contracts/partners";
import Link from "next/link";
import { useFormatter, useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { useAuth } from "@/features/auth/auth-provider.tsx";
import { ApiError, api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";
import { creatorLabel, formatRate } from "./partner-format.ts";

/**
 * /programmes/join/{token}, the invitation e-mail's link: a visitor signs in (and comes back here);
 * a signed-in account accepts, whichever address the invitation went to (decision 034: the link is
 * the capability). What the invitation offers is read first (GET /programmes/invitations/{token}),
 * so a spent or expired link says so before anyone signs in.
 */
export function JoinInvitation({ token, malformed }: { token: string; malformed: boolean }) {
  const t = useTranslations("partners.join");
  const { user, authChecked } = useAuth();
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<MembershipResult | null>(null);
  const [gone, setGone] = useState(malformed);
  const [offer, setOffer] = useState<InvitationPreview | null>(null);
  const here = `/programmes/join/${encodeURIComponent(token)}`;

  useEffect(() => {
    if (malformed) return;
    let live = true;
    api(`/programmes/invitations/${encodeURIComponent(token)}`, {
      schema: () => import("@salelink/contracts/partners").then((m) => m.invitationPreviewSchema),
    })
      .then((found) => {
        if (live) setOffer(found);
      })
      .catch((err: unknown) => {
        // Only the API's "no such invitation" is final; a network hiccup leaves Accept to say.
        if (live && err instanceof ApiError && (err.status === 404 || err.status === 400)) setGone(true);
      });
    return () => {
      live = false;
    };
  }, [token, malformed]);

  async function accept() {
    setPending(true);
    try {
      const joined = await api(`/programmes/invitations/${encodeURIComponent(token)}/accept`, {
        method: "POST",
        // A page opened from an e-mail, often on a phone: zod comes with the answer, not before.
        schema: () => import("@salelink/contracts/partners").then((m) => m.membershipResultSchema),
      });
      setResult(joined);
      toast.success(t("accepted"));
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 400)) setGone(true);
      else toast.error(err instanceof ApiError && err.body ? err.body.message : t("failed"));
    } finally {
      setPending(false);
    }
  }

  if (gone) {
    return (
      <div className="card stack" role="alert">
        <p>
          <strong>{t("goneTitle")}</strong>
        </p>
        <p className="muted">{t("goneText")}</p>
        <p>
          <Link href="/account/programmes">{t("toProgrammes")}</Link>
        </p>
      </div>
    );
  }
  if (result) {
    return (
      <div className="card stack" role="status">
        <p>
          <strong>{t("doneTitle")}</strong>
        </p>
        <p className="muted">{t("doneText")}</p>
        <div className="actions">
          <Link
            className="btn btn-primary"
            href={result.status === "active" ? `/account/programmes/${result.id}` : "/account/programmes"}
          >
            {t("openProgramme")}
          </Link>
        </div>
      </div>
    );
  }
  const offerText = offer && <Offer offer={offer} />;
  if (!authChecked) {
    return (
      <p className="muted loading" role="status" aria-live="polite">
        {t("loading")}
      </p>
    );
  }
  if (!user) {
    return (
      <div className="card stack">
        {offerText}
        <p>{t("signInFirst")}</p>
        <div className="actions">
          <Link className="btn btn-primary" href={`/signin?next=${encodeURIComponent(here)}`}>
            {t("signIn")}
          </Link>
          <Link className="btn btn-ghost" href="/signup">
            {t("signUp")}
          </Link>
        </div>
        <p className="muted">{t("signUpHint")}</p>
      </div>
    );
  }
  return (
    <div className="card stack">
      {offerText}
      <p>{t("acceptAs", { email: user.email })}</p>
      <div className="actions">
        <button
          type="button"
          className="btn btn-primary"
          disabled={pending}
          aria-busy={pending}
          onClick={accept}
        >
          {pending ? t("accepting") : t("accept")}
        </button>
      </div>
    </div>
  );
}

/** Who invites, at which rate and window, and until when. */
function Offer({ offer }: { offer: InvitationPreview }) {
  const t = useTranslations("partners.join");
  const locale = useLocale();
  const format = useFormatter();
  return (
    <>
      <p>
        {t("offer", {
          creator: creatorLabel(offer.creator) ?? t("someCreator"),
          rate: formatRate(offer.defaultRateBps, locale),
          days: offer.windowDays,
        })}
      </p>
      {offer.description && <p className="muted">{offer.description}</p>}
      <p className="muted">
        {t("expires", { date: format.dateTime(new Date(offer.expiresAt), { dateStyle: "long" }) })}
      </p>
    </>
  );
}
