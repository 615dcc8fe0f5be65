import type { FileKind } from "@salelink/contracts/uploads";

/** Inline outline icons (no icon font, no extra request), coloured by the text colour. */
const paths: Record<FileKind | "none", string> = {
  image: "M4 5h16v14H4z M4 16l5-5 4 4 3-3 4 4 M15.5 9.5a1.5 1.5 0 1 0 0-.01",
  video: "M4 6h11v12H4z M15 10l5-3v10l-5-3",
  audio: "M9 18V6l10-2v12 M9 18a3 3 0 1 1-3-3 3 3 0 0 1 3 3z M19 16a3 3 0 1 1-3-3 3 3 0 0 1 3 3z",
  pdf: "M6 3h9l4 4v14H6z M14 3v5h5 M9 13h6 M9 17h6",
  archive: "M4 4h16v4H4z M5 8v12h14V8 M10 12h4",
  other: "M6 3h9l4 4v14H6z M14 3v5h5",
  none: "M6 3h9l4 4v14H6z M14 3v5h5",
};

export function FileKindIcon({ kind, size = 48 }: { kind: FileKind | null; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={paths[kind ?? "none"]} />
    </svg>
  );
}
