"use client";

import { type Campaign, campaignSchema } from "@salelink/contracts/affiliates";
import { useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { ApiError, api } from "@/lib/api.ts";
import { apiFieldErrors } from "@/lib/form-errors.ts";
import { toast } from "@/lib/toast.ts";

/** POST /campaigns: a name is all a campaign needs; its token and link come from the API. */
export function CreateCampaign({ onCreated }: { onCreated: (campaign: Campaign) => void }) {
  const t = useTranslations("affiliates");
  const [pending, setPending] = useState(false);
  const [nameError, setNameError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get("name") ?? "").trim();
    setError(null);
    if (!name) {
      setNameError(t("nameRequired"));
      return;
    }
    setNameError(undefined);
    setPending(true);
    try {
      const created = await api("/campaigns", { method: "POST", body: { name }, schema: campaignSchema });
      form.reset();
      onCreated(created);
      toast.success(t("created"));
    } catch (err) {
      const fields = apiFieldErrors(err);
      if (fields.name) setNameError(fields.name);
      else setError(err instanceof ApiError && err.body ? err.body.message : t("saveFailed"));
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="aff-create" onSubmit={submit} noValidate>
      <Field
        name="name"
        id="new-campaign-name"
        label={t("newCampaign")}
        hint={t("newCampaignHint")}
        maxLength={80}
        required
        error={nameError}
      />
      <button type="submit" className="btn btn-primary" disabled={pending} aria-busy={pending}>
        {pending ? t("creating") : t("create")}
      </button>
      {error && (
        <p className="field-error aff-create-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
