"use client";

import {
  type CreatorProfile,
  createProfileBodySchema,
  creatorProfileSchema,
  updateProfileBodySchema,
} from "@salelink/contracts";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Field, TextAreaField } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useContractForm } from "@/components/ui/use-contract-form.ts";
import { useModalDialog } from "@/components/ui/use-modal-dialog.ts";
import { api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";
import { FileUpload, type UploadValue } from "../uploads/file-upload.tsx";

/** The modal form that creates a profile (profile null) or edits one, prefilled. */
export function ProfileDialog({
  profile,
  apiUrl,
  onClose,
  onSaved,
}: {
  profile: CreatorProfile | null;
  /** The API base, for the current avatar's thumbnail. */
  apiUrl: string | null;
  onClose: () => void;
  onSaved: (profile: CreatorProfile) => void;
}) {
  const t = useTranslations("profiles");
  const ref = useModalDialog();
  const [uploading, setUploading] = useState(false);
  const [avatar, setAvatar] = useState<UploadValue | null>(
    profile?.avatarFileId
      ? {
          id: profile.avatarFileId,
          name: null,
          sizeBytes: null,
          kind: "image",
          thumbnail: profile.avatarUrl && apiUrl ? `${apiUrl}${profile.avatarUrl}` : null,
        }
      : null,
  );

  function messageFor(field: string): string {
    if (field === "handle") return t("errors.handle");
    if (field === "bio") return t("errors.bio");
    if (field === "socialLinks") return t("errors.socialLinks");
    if (field === "avatarFileId") return t("failed");
    return t("errors.displayName");
  }

  const { register, errors, pending, onSubmit } = useContractForm({
    defaultValues: {
      displayName: profile?.displayName ?? "",
      handle: profile?.handle ?? "",
      bio: profile?.bio ?? "",
      socialLinks: profile?.socialLinks.join("\n") ?? "",
    },
    schema: profile ? updateProfileBodySchema : createProfileBodySchema,
    toBody: (values) => ({
      ...values,
      socialLinks: values.socialLinks
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean),
      avatarFileId: avatar?.id ?? null,
    }),
    message: messageFor,
    failed: t("failed"),
    submit: async (body) => {
      const saved = await api(profile ? `/profiles/${profile.id}` : "/profiles", {
        method: profile ? "PATCH" : "POST",
        body,
        schema: creatorProfileSchema,
      });
      toast.success(profile ? t("updated") : t("created"));
      onSaved(saved);
    },
  });

  return (
    <dialog
      ref={ref}
      className="card profile-dialog"
      aria-labelledby="profile-dialog-title"
      onClose={onClose}
    >
      <form className="form" method="post" onSubmit={onSubmit} noValidate>
        <h2 id="profile-dialog-title">{profile ? t("editTitle") : t("createTitle")}</h2>
        <Field
          {...register("displayName")}
          label={t("displayName")}
          maxLength={60}
          error={errors.displayName}
        />
        <Field
          {...register("handle")}
          label={t("handle")}
          hint={t("handleHint")}
          autoComplete="off"
          maxLength={30}
          error={errors.handle}
        />
        <FileUpload
          id="profile-avatar"
          label={t("avatar")}
          hint={t("avatarHint")}
          use="avatar"
          value={avatar}
          onChange={setAvatar}
          onBusyChange={setUploading}
          error={errors.avatarFileId}
        />
        <TextAreaField {...register("bio")} label={t("bio")} rows={3} maxLength={500} error={errors.bio} />
        <TextAreaField
          {...register("socialLinks")}
          label={t("socialLinks")}
          hint={t("socialLinksHint")}
          rows={5}
          error={errors.socialLinks}
        />
        {errors.form && (
          <p className="field-error" role="alert">
            {errors.form}
          </p>
        )}
        <div className="actions">
          <SubmitButton pending={pending} pendingLabel={t("saving")} label={t("save")} disabled={uploading} />
          <button type="button" className="btn btn-ghost" onClick={() => ref.current?.close()}>
            {t("cancel")}
          </button>
        </div>
      </form>
    </dialog>
  );
}
