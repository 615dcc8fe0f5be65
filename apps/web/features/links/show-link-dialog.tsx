"use client";

import type { Link } from "@salelink/contracts";
import { useTranslations } from "next-intl";
import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { useModalDialog } from "@/components/ui/use-modal-dialog.ts";
import { toast } from "@/lib/toast.ts";

/** The spec's "show link": the buyer URL to copy, scan, share or open. */
export function ShowLinkDialog({ link, onClose }: { link: Link; onClose: () => void }) {
  const t = useTranslations("links");
  const ref = useModalDialog(null);
  const url = `${window.location.origin}/v/${link.token}`;
  const [qrSvg, setQrSvg] = useState<string | null>(null);
  const canShare = typeof navigator.share === "function";

  useEffect(() => {
    let live = true;
    // Drawn in the browser: the buyer URL depends on the site's origin, which the API does not know.
    QRCode.toString(url, { type: "svg", margin: 1, errorCorrectionLevel: "M" })
      .then((svg) => {
        if (live) setQrSvg(svg);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [url]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      toast.success(t("copied"));
    } catch {
      toast.error(t("copyFailed"));
    }
  }

  async function share() {
    try {
      await navigator.share({ title: link.title, url });
    } catch {
      // Closing the share sheet rejects too: nothing to report.
    }
  }

  return (
    <dialog
      ref={ref}
      className="card profile-dialog show-link"
      aria-labelledby="show-link-title"
      onClose={onClose}
    >
      <div className="form">
        <h2 id="show-link-title">{t("showTitle")}</h2>
        <p className="muted">{t("showIntro", { title: link.title })}</p>
        {link.status !== "active" && <p className="notice">{t("notOnSale")}</p>}
        <div className="field">
          <label htmlFor="buyer-url">{t("buyerUrl")}</label>
          <input id="buyer-url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        </div>
        <div className="actions">
          <button type="button" className="btn btn-primary" onClick={copy}>
            {t("copy")}
          </button>
          {canShare && (
            <button type="button" className="btn btn-ghost" onClick={share}>
              {t("share")}
            </button>
          )}
          <a className="btn btn-ghost" href={url} target="_blank" rel="noopener">
            {t("open")}
          </a>
        </div>
        {qrSvg ? (
          // biome-ignore lint/performance/noImgElement: an SVG drawn here, as a data URL; nothing to optimise.
          <img
            className="qr link-qr"
            src={`data:image/svg+xml;base64,${btoa(qrSvg)}`}
            alt={t("qrAlt", { url })}
            width={200}
            height={200}
          />
        ) : (
          <span className="link-qr" aria-busy="true" />
        )}
        <div className="actions">
          <button type="button" className="btn btn-ghost" onClick={() => ref.current?.close()}>
            {t("close")}
          </button>
        </div>
      </div>
    </dialog>
  );
}
