import type { FileKind, Link } from "@salelink/contracts";

/** Simple line icons per kind of sold file, for links without a cover or preview. */
const icons: Record<FileKind | "none", string> = {
  image: "M4 5h16v14H4z M4 16l5-5 4 4 3-3 4 4 M15 9.5a1.5 1.5 0 1 0 0-.01",
  video: "M4 6h12v12H4z M16 10l4-2v8l-4-2",
  audio: "M9 18V6l10-2v12 M9 18a3 3 0 1 1-3-3 3 3 0 0 1 3 3z M19 16a3 3 0 1 1-3-3 3 3 0 0 1 3 3z",
  pdf: "M6 3h9l4 4v14H6z M15 3v4h4 M9 13h7 M9 17h7",
  archive: "M5 4h14v16H5z M12 4v2 M12 8v2 M12 12v2 M11 16h2v2h-2z",
  other: "M6 3h9l4 4v14H6z M15 3v4h4",
  none: "M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1 M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1",
};

/** The cover, else the blurred preview, else an icon of the kind of file sold. */
export function LinkThumb({ link, apiUrl }: { link: Link; apiUrl: string | null }) {
  const image = link.coverUrl ?? link.previewUrl;
  if (image && apiUrl)
    // biome-ignore lint/performance/noImgElement: the API serves ready-sized renditions; no image optimiser.
    return <img className="link-thumb" src={`${apiUrl}${image}`} alt="" loading="lazy" />;
  return (
    <span className="link-thumb link-thumb-icon">
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        width="28"
        height="28"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d={icons[link.file?.kind ?? "none"]} />
      </svg>
    </span>
  );
}
