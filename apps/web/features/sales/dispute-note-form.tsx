"use client";

import {
  DISPUTE_NOTE_MAX,
  type DisputeNoteBody,
  type DisputeView,
  disputeNoteBodySchema,
  disputeViewSchema,
} from "@salelink/contracts/disputes";
import { useTranslations } from "next-intl";
import { useId } from "react";
import { TextAreaField } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useContractForm } from "@/components/ui/use-contract-form.ts";
import { ApiError, api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";

/**
 * The creator's word to the buyer's bank, sent with the evidence (issue 32): open until the evidence
 * leaves (`noteOpen`); saving it again replaces it. The API answers the dispute as it now stands.
 */
export function DisputeNoteForm({
  saleId,
  dispute,
  onSaved,
}: {
  saleId: string;
  dispute: DisputeView;
  /** The dispute as the API answered it, or null: the evidence left meanwhile, read the sale again. */
  onSaved: (dispute: DisputeView | null) => void;
}) {
  const t = useTranslations("sales.disputes.note");
  const id = useId();
  const { register, errors, pending, onSubmit } = useContractForm<{ note: string }, DisputeNoteBody>({
    defaultValues: { note: dispute.creatorNote ?? "" },
    schema: disputeNoteBodySchema,
    toBody: (values) => ({ note: values.note }),
    fieldOf: (path) => (path === "note" ? "note" : "form"),
    message: (field, code) =>
      field === "note"
        ? code === "too_big"
          ? t("errors.long", { max: DISPUTE_NOTE_MAX })
          : t("errors.empty")
        : t("failed"),
    // 409: the evidence left meanwhile; the API says so in the creator's language.
    failed: (err) => (err instanceof ApiError && err.status === 409 ? err.message : t("failed")),
    onFailure: (err, shown) => {
      if (err instanceof ApiError && err.status === 409) onSaved(null);
      return shown;
    },
    submit: async (body) => {
      const saved = await api(
        `/sales/${encodeURIComponent(saleId)}/disputes/${encodeURIComponent(dispute.id)}/note`,
        { method: "PUT", body, schema: disputeViewSchema },
      );
      toast.success(t("saved"), { description: t("savedText") });
      onSaved(saved);
    },
  });

  return (
    <form className="form sale-dispute-note" method="post" onSubmit={onSubmit} noValidate>
      <TextAreaField
        {...register("note")}
        id={`${id}-note`}
        label={t("label")}
        hint={t("hint", { max: DISPUTE_NOTE_MAX })}
        rows={4}
        maxLength={DISPUTE_NOTE_MAX}
        error={errors.note}
      />
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="actions">
        <SubmitButton
          pending={pending}
          pendingLabel={t("saving")}
          label={dispute.creatorNote ? t("update") : t("save")}
        />
      </div>
    </form>
  );
}
