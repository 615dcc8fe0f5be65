"use client";

import { messageResponseSchema } from "@salelink/contracts";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { ApiError, api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";

/** Deletion is confirmed twice: here, then through the link e-mailed to the account. */
export function DeleteAccountSection() {
  const t = useTranslations("settings.delete");
  const [confirming, setConfirming] = useState(false);
  const [sent, setSent] = useState(false);
  const [pending, setPending] = useState(false);

  async function request() {
    setPending(true);
    try {
      await api("/profile/delete", { method: "POST", schema: messageResponseSchema });
      setSent(true);
      toast.success(t("sent"));
    } catch (err) {
      if (err instanceof ApiError && err.exception === "RateLimitException") toast.error(t("slowDown"));
      // Money still in the wallet: the server says what to do first, in the user's language.
      else if (err instanceof ApiError && err.exception === "ConflictException") toast.error(err.message);
      else toast.error(t("failed"));
    } finally {
      setPending(false);
      setConfirming(false);
    }
  }

  return (
    <section className="card form danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">{t("title")}</h2>
      <p className="muted">{t("text")}</p>
      {sent ? (
        <p className="notice" role="status">
          {t("sent")}
        </p>
      ) : confirming ? (
        <div className="cta-row">
          <button type="button" className="btn btn-danger" onClick={() => void request()} disabled={pending}>
            {t("confirm")}
          </button>
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => setConfirming(false)}
            disabled={pending}
          >
            {t("cancel")}
          </button>
        </div>
      ) : (
        <button type="button" className="btn btn-ghost" onClick={() => setConfirming(true)}>
          {t("start")}
        </button>
      )}
    </section>
  );
}
