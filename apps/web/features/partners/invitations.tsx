"use client";

import { messageResponseSchema } from "@salelink/contracts/auth";
import {
  PARTNER_INVITATION_TTL_DAYS,
  type PartnerInvitation,
  type PartnerInvitationList,
  partnerInvitationBodySchema,
  partnerInvitationListSchema,
  partnerInvitationSchema,
} from "@salelink/contracts/partners";
import { useQueryClient } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { LoadFailed } from "@/components/ui/list-states.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { useContractForm } from "@/components/ui/use-contract-form.ts";
import { ApiError, api } from "@/lib/api.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { toast } from "@/lib/toast.ts";

/** Invite someone by e-mail (a link valid a few days), and the invitations not used yet. */
export function Invitations() {
  const t = useTranslations("partners.invite");
  const locale = useLocale();
  const queryClient = useQueryClient();
  const {
    data: list,
    failed,
    reload,
  } = useApiQuery(
    queryKeys.partners.invitations,
    "/partner-programme/invitations",
    partnerInvitationListSchema,
  );
  const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
  const [cancelling, setCancelling] = useState<string | null>(null);

  /** DELETE /partner-programme/invitations/{id}: its link stops working at once. */
  async function cancel(invitation: PartnerInvitation) {
    setCancelling(invitation.id);
    try {
      const done = await api(`/partner-programme/invitations/${invitation.id}`, {
        method: "DELETE",
        schema: messageResponseSchema,
      });
      toast.success(done.message);
    } catch (err) {
      toast.error(err instanceof ApiError && err.body ? err.body.message : t("cancelFailed"));
    } finally {
      setCancelling(null);
      // Cancelled, or already used or expired meanwhile: either way the list is read again.
      await queryClient.invalidateQueries({ queryKey: queryKeys.partners.invitations });
    }
  }

  const { form, register, errors, pending, onSubmit } = useContractForm({
    defaultValues: { email: "" },
    schema: partnerInvitationBodySchema,
    toBody: (values) => ({ email: values.email }),
    message: () => t("emailInvalid"),
    failed: (err) => (err instanceof ApiError && err.body ? err.body.message : t("failed")),
    onFailure: (err, shown) => {
      // Too many invitations today: said once, as a toast, not left under the field.
      if (err instanceof ApiError && err.status === 429) {
        toast.error(err.body?.message ?? t("failed"));
        return {};
      }
      return shown;
    },
    submit: async (body) => {
      const sent = await api("/partner-programme/invitations", {
        method: "POST",
        body,
        schema: partnerInvitationSchema,
      });
      toast.success(t("sent", { email: sent.email }));
      form.reset({ email: "" });
      // A new invitation to the same address replaces the pending one.
      queryClient.setQueryData<PartnerInvitationList>(
        queryKeys.partners.invitations,
        (now) => now && { items: [sent, ...now.items.filter((i) => i.email !== sent.email)] },
      );
    },
  });

  return (
    <section className="aff-section" aria-labelledby="partners-invite-title">
      <h2 id="partners-invite-title">{t("title")}</h2>
      <form className="form card partners-invite" method="post" onSubmit={onSubmit} noValidate>
        <p className="muted partners-hint">{t("intro", { days: PARTNER_INVITATION_TTL_DAYS })}</p>
        <Field
          {...register("email")}
          id="partner-invite-email"
          type="email"
          autoComplete="off"
          label={t("email")}
          error={errors.email}
        />
        {errors.form && (
          <p className="field-error" role="alert">
            {errors.form}
          </p>
        )}
        <div className="actions">
          <SubmitButton pending={pending} pendingLabel={t("sending")} label={t("send")} />
        </div>
      </form>
      <h3 className="partners-subtitle" id="partners-pending-title">
        {t("pendingTitle")}
      </h3>
      {failed ? (
        <LoadFailed message={t("loadFailed")} retry={t("retry")} onRetry={reload} />
      ) : list === null ? (
        <p aria-busy="true" className="muted">
          {t("loading")}
        </p>
      ) : list.items.length === 0 ? (
        <p className="muted">{t("empty")}</p>
      ) : (
        <ul className="partners-invitations" aria-labelledby="partners-pending-title">
          {list.items.map((i: PartnerInvitation) => (
            <li key={i.id} className="card">
              <span className="aff-account">{i.email}</span>
              <span className="muted">
                {t("sentOn", { date: day.format(new Date(i.createdAt)) })} ·{" "}
                {t("expiresOn", { date: day.format(new Date(i.expiresAt)) })}
              </span>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                aria-label={t("cancelLabel", { email: i.email })}
                disabled={cancelling === i.id}
                aria-busy={cancelling === i.id}
                onClick={() => cancel(i)}
              >
                {t("cancel")}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
