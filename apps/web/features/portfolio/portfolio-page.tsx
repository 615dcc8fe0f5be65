"use client";

import {
  type Link as CatalogueLink,
  type CreatorProfile,
  profileListResponseSchema,
} from "@salelink/contracts";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useEffect, useMemo, useState } from "react";
import { loadMyLinks } from "@/features/links/my-links.ts";
import { api } from "@/lib/api.ts";
import { runtimeConfig } from "@/lib/runtime-config.ts";
import { PortfolioEditor } from "./portfolio-editor.tsx";

interface Loaded {
  profiles: CreatorProfile[];
  links: CatalogueLink[];
  apiUrl: string;
}

/** Which links each of my profiles shows on its creator page, and in which order. */
export function PortfolioPage() {
  const t = useTranslations("portfolio");
  const [data, setData] = useState<Loaded | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [profileId, setProfileId] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const signal = controller.signal;
    Promise.all([
      api("/profiles", { schema: profileListResponseSchema, signal }),
      loadMyLinks(signal),
      runtimeConfig(),
    ])
      .then(([{ items }, links, config]) => {
        setData({ profiles: items, links, apiUrl: config.apiUrl });
        setProfileId(items[0]?.id ?? null);
      })
      .catch(() => {
        if (!signal.aborted) setLoadFailed(true);
      });
    return () => controller.abort();
  }, []);

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
