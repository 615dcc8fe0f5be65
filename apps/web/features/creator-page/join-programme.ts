import { ApiError, api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";
import type { BecomePartnerTexts } from "./become-partner.tsx";

/**
 * POST /programmes/{creatorId}/join, loaded on the click (the creator page's first load stays
 * small): what to say once joined or applied, or null after a failure, which is toasted here.
 */
export async function joinProgramme(creatorId: string, texts: BecomePartnerTexts): Promise<string | null> {
  try {
    const result = await api(`/programmes/${encodeURIComponent(creatorId)}/join`, {
      method: "POST",
      schema: () => import("@salelink/contracts/partners").then((m) => m.membershipResultSchema),
    });
    const said = result.status === "active" ? texts.joined : texts.applied;
    toast.success(said);
    return said;
  } catch (err) {
    toast.error(err instanceof ApiError && err.body ? err.body.message : texts.failed);
    return null;
  }
}
