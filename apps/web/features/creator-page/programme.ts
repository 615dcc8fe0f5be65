import "server-only";
import { type PublicProgramme, publicProgrammeSchema } from "@salelink/contracts/partners";
import { cache } from "react";
import { creatorTag, PUBLIC_PAGE_REVALIDATE_SECONDS } from "@/features/buyer/public-api.ts";
import { serverEnv } from "@/lib/server-env.ts";

/**
 * GET /public/programmes/{profileId}: the creator's partner programme when it is on and takes
 * partners by themselves (open or by approval); null otherwise. Read on the server with the page
 * (cached and tagged as the creator page is), so the page's first load carries no extra request and
 * no schema. Any failure is null: the programme never costs the creator page its products.
 */
export const getJoinableProgramme = cache(async (profileId: string): Promise<PublicProgramme | null> => {
  try {
    const res = await fetch(
      `${serverEnv.apiInternalUrl}/public/programmes/${encodeURIComponent(profileId)}`,
      {
        headers: { accept: "application/json" },
        next: {
          revalidate: PUBLIC_PAGE_REVALIDATE_SECONDS,
          tags: [creatorTag(profileId), programmeTag(profileId)],
        },
      },
    );
    if (!res.ok) return null;
    const parsed = publicProgrammeSchema.safeParse(await res.json());
    if (!parsed.success) return null;
    const programme = parsed.data;
    return programme.enabled && programme.joinMode !== "invitation" ? programme : null;
  } catch {
    return null;
  }
});

/** The tag the API may revalidate when a creator saves their programme (by profile id). */
export const programmeTag = (profileId: string) => `programme:${profileId.toLowerCase()}`;
