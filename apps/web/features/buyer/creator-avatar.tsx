import type { PublicCreator } from "@salelink/contracts/catalogue";
import { mediaUrl } from "./public-api.ts";

/** The creator's avatar, or their initial on a tinted disc; decorative next to their name. */
export function CreatorAvatar({ creator, size }: { creator: PublicCreator; size: number }) {
  if (creator.avatarUrl) {
    return (
      // biome-ignore lint/performance/noImgElement: the API serves ready-sized renditions; no image optimiser.
      <img
        className="creator-avatar"
        src={mediaUrl(creator.avatarUrl)}
        alt=""
        width={size}
        height={size}
        decoding="async"
      />
    );
  }
  return (
    <span
      className="creator-avatar creator-avatar-initial"
      style={{ width: size, height: size, fontSize: Math.round(size * 0.42) }}
      aria-hidden="true"
    >
      {creator.displayName.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}
