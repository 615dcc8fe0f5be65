"use client";

import { type CreatorProfile, messageResponseSchema, profileListResponseSchema } from "@salelink/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { ListStates } from "@/components/ui/list-states.tsx";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { runtimeConfigQuery } from "@/components/ui/use-runtime-config.ts";
import { ApiError, api } from "@/lib/api.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { toast } from "@/lib/toast.ts";
import { ProfileDialog } from "./profile-dialog.tsx";

const excerpt = (text: string, max = 140) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;

/** My creator profiles: list, create and edit in a modal, delete after a confirmation. */
export function ProfilesPage() {
  const t = useTranslations("profiles");
  const queryClient = useQueryClient();
  const list = useApiQuery(queryKeys.profiles, "/profiles", profileListResponseSchema);
  const config = useQuery(runtimeConfigQuery);
  // The list shows once the media's address is known too, as it always did.
  const profiles = list.data && config.data ? list.data.items : null;
  const loadFailed = list.failed || config.isError;
  const apiUrl = config.data?.apiUrl ?? null;
  /** undefined: no dialog; null: creating; a profile: editing it. */
  const [editing, setEditing] = useState<CreatorProfile | null | undefined>(undefined);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  function setProfiles(update: (items: CreatorProfile[]) => CreatorProfile[]) {
    queryClient.setQueryData<{ items: CreatorProfile[] }>(
      queryKeys.profiles,
      (now) => now && { ...now, items: update(now.items) },
    );
  }

  function onSaved(saved: CreatorProfile) {
    setProfiles((list) => {
      const rest = list.filter((p) => p.id !== saved.id);
      return editing ? list.map((p) => (p.id === saved.id ? saved : p)) : [...rest, saved];
    });
    setEditing(undefined);
  }

  async function onDelete(profile: CreatorProfile) {
    setDeleting(true);
    try {
      const { message } = await api(`/profiles/${profile.id}`, {
        method: "DELETE",
        schema: messageResponseSchema,
      });
      setProfiles((list) => list.filter((p) => p.id !== profile.id));
      setConfirming(null);
      toast.success(t("deleted"), { description: message });
    } catch (err) {
      toast.error(t("deleteFailed"), { description: err instanceof ApiError ? err.message : undefined });
    } finally {
      setDeleting(false);
    }
  }

  const createButton = (
    <button type="button" className="btn btn-primary" onClick={() => setEditing(null)}>
      {t("create")}
    </button>
  );

  return (
    <section className="profiles">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <ListStates
        items={profiles}
        failed={loadFailed}
        texts={{
          failed: t("loadFailed"),
          loading: t("loading"),
          empty: t("empty"),
          emptyHint: t("emptyHint"),
        }}
        action={createButton}
      >
        {(items) => (
          <>
            {createButton}
            <ul className="profile-list">
              {items.map((profile) => (
                <li key={profile.id} className="card" aria-label={profile.displayName}>
                  <div className="profile-heading">
                    {profile.avatarUrl && apiUrl && (
                      <img
                        className="profile-avatar"
                        src={`${apiUrl}${profile.avatarUrl}`}
                        alt={t("avatarAlt", { name: profile.displayName })}
                        width={48}
                        height={48}
                      />
                    )}
                    <div>
                      <h2>{profile.displayName}</h2>
                      <p className="muted">@{profile.handle}</p>
                    </div>
                  </div>
                  {profile.bio && <p>{excerpt(profile.bio)}</p>}
                  {confirming === profile.id ? (
                    <div className="actions">
                      <p>{t("confirmDelete", { handle: profile.handle })}</p>
                      <button
                        type="button"
                        className="btn btn-danger"
                        disabled={deleting}
                        aria-busy={deleting}
                        onClick={() => onDelete(profile)}
                      >
                        {t("confirm")}
                      </button>
                      <button type="button" className="btn btn-ghost" onClick={() => setConfirming(null)}>
                        {t("cancel")}
                      </button>
                    </div>
                  ) : (
                    <div className="actions">
                      <button type="button" className="btn btn-ghost" onClick={() => setEditing(profile)}>
                        {t("edit")}
                      </button>
                      <a className="btn btn-ghost" href={`/c/${profile.id}`}>
                        {t("viewPage")}
                      </a>
                      <button
                        type="button"
                        className="btn btn-ghost"
                        onClick={() => setConfirming(profile.id)}
                      >
                        {t("delete")}
                      </button>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
      </ListStates>
      {editing !== undefined && (
        <ProfileDialog
          key={editing?.id ?? "new"}
          profile={editing}
          apiUrl={apiUrl}
          onClose={() => setEditing(undefined)}
          onSaved={onSaved}
        />
      )}
    </section>
  );
}
