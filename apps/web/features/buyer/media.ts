import type { PublicLink } from "@salelink/contracts/catalogue";

/**
 * Sizes of the API's renditions (apps/api lib/images.ts): covers are cropped to exactly 1200×630 (the
 * Open Graph size); blurred previews keep the image's ratio, so their height is unknown here.
 */
export const COVER_SIZE = { width: 1200, height: 630 } as const;

export type Visual =
  | { kind: "cover"; path: string; width: number; height: number }
  | { kind: "preview"; path: string };

/** The picture a buyer sees and a shared link shows: the creator's cover, else the blurred preview. */
export function linkVisual(link: Pick<PublicLink, "coverUrl" | "previewUrl">): Visual | null {
  if (link.coverUrl) return { kind: "cover", path: link.coverUrl, ...COVER_SIZE };
  if (link.previewUrl) return { kind: "preview", path: link.previewUrl };
  return null;
}
