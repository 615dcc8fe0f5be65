"use client";

import { type Campaign, campaignSchema } from "@salelink/contracts/affiliates";
import type { Currency } from "@salelink/contracts/business-rules";
import { useLocale, useTranslations } from "next-intl";
import QRCode from "qrcode";
import { type FormEvent, useEffect, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { ApiError, api } from "@/lib/api.ts";
import { apiFieldErrors } from "@/lib/form-errors.ts";
import { toast } from "@/lib/toast.ts";
import { formatAmounts } from "./money-list.ts";
import { reportClick } from "./report-click.ts";

/** One campaign: its share link (copy, QR, a test visit), its figures, rename and archive. */
export function CampaignCard({
  campaign,
  defaultCurrency,
  onChange,
}: {
  campaign: Campaign;
  defaultCurrency: Currency;
  onChange: (campaign: Campaign) => void;
}) {
  const t = useTranslations("affiliates");
  const locale = useLocale();
  const [qrSvg, setQrSvg] = useState<string | null>(null);
  const [showQr, setShowQr] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | undefined>();
  const archived = campaign.status === "archived";
  const money = (amounts: Campaign["pending"]) => formatAmounts(amounts, locale, defaultCurrency);
  const id = `campaign-${campaign.id}`;

  useEffect(() => {
    if (!showQr) return;
    let live = true;
    QRCode.toString(campaign.shareUrl, { type: "svg", margin: 1, errorCorrectionLevel: "M" })
      .then((svg) => {
        if (live) setQrSvg(svg);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [showQr, campaign.shareUrl]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(campaign.shareUrl);
      toast.success(t("copied"));
    } catch {
      toast.error(t("copyFailed"));
    }
  }

  async function testLink() {
    setBusy(true);
    // The person asked for it: a failure is said here (spec: 'Failed to update click.').
    const recorded = await reportClick(campaign.token);
    setBusy(false);
    if (recorded) toast.success(t("testRecorded"));
    else toast.error(t("clickFailed"));
  }

  async function update(body: { name?: string; status?: Campaign["status"] }) {
    setBusy(true);
    setError(null);
    setNameError(undefined);
    try {
      const saved = await api(`/campaigns/${campaign.id}`, { method: "PATCH", body, schema: campaignSchema });
      onChange(saved);
      setRenaming(false);
      toast.success(
        t(body.status === undefined ? "renamed" : body.status === "archived" ? "archived" : "restored"),
      );
    } catch (err) {
      const fields = apiFieldErrors(err);
      if (fields.name) setNameError(fields.name);
      else setError(err instanceof ApiError && err.body ? err.body.message : t("saveFailed"));
    } finally {
      setBusy(false);
    }
  }

  function rename(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    if (!name) {
      setNameError(t("nameRequired"));
      return;
    }
    void update({ name });
  }

  return (
    <li className="card aff-campaign" aria-labelledby={`${id}-name`} data-status={campaign.status}>
      <div className="aff-campaign-head">
        <h3 id={`${id}-name`}>{campaign.name}</h3>
        {archived && <span className="aff-badge">{t("statusArchived")}</span>}
      </div>
      {renaming && (
        <form className="aff-rename" onSubmit={rename} noValidate>
          <Field
            name="name"
            id={`${id}-rename`}
            label={t("newName")}
            defaultValue={campaign.name}
            maxLength={80}
            required
            error={nameError}
          />
          <div className="actions">
            <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
              {t("save")}
            </button>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setRenaming(false)}>
              {t("cancel")}
            </button>
          </div>
        </form>
      )}
      <div className="field aff-share">
        <label htmlFor={`${id}-url`}>{t("shareLink")}</label>
        <input
          id={`${id}-url`}
          readOnly
          value={campaign.shareUrl}
          onFocus={(e) => e.currentTarget.select()}
        />
      </div>
      <div className="actions">
        <button type="button" className="btn btn-primary btn-sm" onClick={copy}>
          {t("copy")}
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          aria-expanded={showQr}
          aria-controls={`${id}-qr`}
          onClick={() => setShowQr((v) => !v)}
        >
          {showQr ? t("hideQr") : t("showQr")}
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          disabled={busy}
          onClick={testLink}
          title={t("testHint")}
        >
          {t("testLink")}
        </button>
      </div>
      <div id={`${id}-qr`} hidden={!showQr}>
        {showQr &&
          (qrSvg ? (
            // biome-ignore lint/performance/noImgElement: an SVG drawn here, as a data URL; nothing to optimise.
            <img
              className="qr aff-qr"
              src={`data:image/svg+xml;base64,${btoa(qrSvg)}`}
              alt={t("qrAlt", { url: campaign.shareUrl })}
              width={160}
              height={160}
            />
          ) : (
            <span className="aff-qr" aria-busy="true" />
          ))}
      </div>
      <dl className="aff-figures">
        <Figure term={t("clicks")} value={campaign.clicks} />
        <Figure term={t("bots")} value={campaign.botClicks} />
        <Figure term={t("filtered")} value={campaign.filteredClicks} />
        <Figure term={t("signups")} value={campaign.signups} />
        <Figure term={t("sales")} value={campaign.sales} />
        <Figure term={t("pending")} value={money(campaign.pending)} />
        <Figure term={t("claimable")} value={money(campaign.claimable)} />
        <Figure term={t("claimed")} value={money(campaign.claimed)} />
      </dl>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="actions aff-campaign-actions">
        {!renaming && (
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setRenaming(true)}>
            {t("rename")}
          </button>
        )}
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          disabled={busy}
          onClick={() => update({ status: archived ? "active" : "archived" })}
        >
          {archived ? t("unarchive") : t("archive")}
        </button>
      </div>
    </li>
  );
}

function Figure({ term, value }: { term: string; value: string | number }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}
