"use client";

import {
  type CreatorProfile,
  createProfileBodySchema,
  creatorProfileSchema,
  updateProfileBodySchema,
} from "@salelink/contracts";
import { useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { Field, TextAreaField } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useModalDialog } from "@/components/ui/use-modal-dialog.ts";
import { api } from "@/lib/api.ts";
import { apiFieldErrors, type FieldErrors, topLevelErrors } from "@/lib/form-errors.ts";
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
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
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

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const f = new FormData(event.currentTarget);
    const input = {
      displayName: String(f.get("displayName") ?? ""),
      handle: String(f.get("handle") ?? ""),
      bio: String(f.get("bio") ?? ""),
      socialLinks: String(f.get("socialLinks") ?? "")
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean),
      avatarFileId: avatar?.id ?? null,
    };
    const parsed = profile
      ? updateProfileBodySchema.safeParse(input)
      : createProfileBodySchema.safeParse(input);
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0]);
        next[key] ??= messageFor(key);
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const saved = await api(profile ? `/profiles/${profile.id}` : "/profiles", {
        method: profile ? "PATCH" : "POST",
        body: parsed.data,
        schema: creatorProfileSchema,
      });
      toast.success(profile ? t("updated") : t("created"));
      onSaved(saved);
    } catch (err) {
      const fieldErrors = topLevelErrors(apiFieldErrors(err));
      setErrors(Object.keys(fieldErrors).length > 0 ? fieldErrors : { form: t("failed") });
    } finally {
      setPending(false);
    }
  }

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
          name="displayName"
          label={t("displayName")}
          defaultValue={profile?.displayName ?? ""}
          maxLength={60}
          error={errors.displayName}
        />
        <Field
          name="handle"
          label={t("handle")}
          hint={t("handleHint")}
          defaultValue={profile?.handle ?? ""}
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
        <TextAreaField
          name="bio"
          label={t("bio")}
          rows={3}
          maxLength={500}
          defaultValue={profile?.bio ?? ""}
          error={errors.bio}
        />
        <TextAreaField
          name="socialLinks"
          label={t("socialLinks")}
          hint={t("socialLinksHint")}
          rows={5}
          defaultValue={profile?.socialLinks.join("\n") ?? ""}
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
