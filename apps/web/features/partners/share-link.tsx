"use client";

import { useTranslations } from "next-intl";
import QRCode from "qrcode";
import { useEffect, useId, useState } from "react";
import { toast } from "@/lib/toast.ts";

/** One partner address: shown to select, copied, or drawn as a QR code on demand. */
export function ShareLink({ label, url }: { label: string; url: string }) {
  const t = useTranslations("partners.membership");
  const id = useId();
  const [showQr, setShowQr] = useState(false);
  const [qrSvg, setQrSvg] = useState<string | null>(null);

  useEffect(() => {
    if (!showQr) return;
    let live = true;
    // Drawn in the browser: the address depends on the site's origin, which the API does not know.
    QRCode.toString(url, { type: "svg", margin: 1, errorCorrectionLevel: "M" })
      .then((svg) => {
        if (live) setQrSvg(svg);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [showQr, url]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      toast.success(t("copied"));
    } catch {
      toast.error(t("copyFailed"));
    }
  }

  return (
    <div className="partners-share">
      <div className="field aff-share">
        <label htmlFor={`${id}-url`}>{label}</label>
        <input id={`${id}-url`} readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
      </div>
      <div className="actions">
        <button
          type="button"
          className="btn btn-primary btn-sm"
          onClick={copy}
          aria-describedby={`${id}-url`}
        >
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
      </div>
      <div id={`${id}-qr`} hidden={!showQr}>
        {showQr &&
          (qrSvg ? (
            // biome-ignore lint/performance/noImgElement: an SVG drawn here, as a data URL; nothing to optimise.
            <img
              className="qr aff-qr"
              src={`data:image/svg+xml;base64,${btoa(qrSvg)}`}
              alt={t("qrAlt", { url })}
              width={160}
              height={160}
            />
          ) : (
            <span className="aff-qr" aria-busy="true" />
          ))}
      </div>
    </div>
  );
}
