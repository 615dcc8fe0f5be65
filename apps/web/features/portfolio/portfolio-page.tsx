"use client";

import { profileListResponseSchema } from "@salelink/contracts";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { runtimeConfigQuery } from "@/components/ui/use-runtime-config.ts";
import { useMyLinks } from "@/features/links/my-links.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { PortfolioEditor } from "./portfolio-editor.tsx";

/** Which links each of my profiles shows on its creator page, and in which order. */
export function PortfolioPage() {
  const t = useTranslations("portfolio");
  const profiles = useApiQuery(queryKeys.profiles, "/profiles", profileListResponseSchema);
  const links = useMyLinks();
  const config = useQuery(runtimeConfigQuery);
  const loadFailed = profiles.failed || (links.isError && !links.isFetching) || config.isError;
  const data =
    profiles.data && links.data && config.data
      ? { profiles: profiles.data.items, links: links.data, apiUrl: config.data.apiUrl }
      : null;
  /** null: the first profile, until another is chosen. */
  const [chosenId, setProfileId] = useState<string | null>(null);
  const profileId = chosenId ?? data?.profiles[0]?.id ?? null;

  const profile = data?.profiles.find((p) => p.id === profileId);
  // Stable per profile: the editor loads the saved portfolio again whenever its links change.
  const profileLinks = useMemo(
    () => (data?.links ?? []).filter((l) => l.profileId === profileId),
    [data, profileId],
  );

  return (
    <section className="portfolio">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      {loadFailed ? (
        <p className="field-error" role="alert">
          {t("loadFailed")}
        </p>
      ) : data === null ? (
        <p aria-busy="true">{t("loading")}</p>
      ) : data.profiles.length === 0 || !profile ? (
        <div className="card empty-state">
          <p>
            <strong>{t("noProfiles")}</strong>
          </p>
          <p className="muted">{t("noProfilesHint")}</p>
          <Link className="btn btn-primary" href="/account/profiles">
            {t("goToProfiles")}
          </Link>
        </div>
      ) : (
        <>
          <div className="portfolio-toolbar">
            <div className="field">
              <label htmlFor="portfolio-profile">{t("profile")}</label>
              <select
                id="portfolio-profile"
                value={profile.id}
                onChange={(event) => setProfileId(event.target.value)}
              >
                {data.profiles.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.displayName} (@{p.handle})
                  </option>
                ))}
              </select>
            </div>
            <Link className="btn btn-ghost" href={`/c/${profile.id}`}>
              {t("viewPage")}
            </Link>
          </div>
          <PortfolioEditor key={profile.id} profile={profile} links={profileLinks} apiUrl={data.apiUrl} />
        </>
      )}
    </section>
  );
}
