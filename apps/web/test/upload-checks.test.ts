import { readFileSync } from "node:fs";
import path from "node:path";
import { uploadRules } from "@salelink/contracts";
import { describe, expect, it } from "vitest";
import { checkSelection, serverRejection, sniffKind } from "../features/uploads/upload-checks.ts";

const fixtures = path.resolve(import.meta.dirname, "../../api/test/fixtures/files");
const head = (name: string) => new Uint8Array(readFileSync(path.join(fixtures, name)).subarray(0, 16));
const MiB = 1024 * 1024;

describe("client-side upload checks", () => {
  it("tells the kind from the first bytes, not the name", () => {
    for (const image of ["photo.png", "photo.jpg", "photo.gif", "photo.webp"])
      expect(sniffKind(head(image))).toBe("image");
    expect(sniffKind(head("document.pdf"), "image/png")).toBe("pdf");
    for (const archive of ["archive.zip", "archive.gz", "archive.7z", "header-sample.rar"])
      expect(sniffKind(head(archive))).toBe("archive");
    expect(sniffKind(head("notes.txt"), "text/plain")).toBe("other");
    expect(sniffKind(head("notes.txt"), "video/mp4")).toBe("video");
  });

  it("applies the API's limits per use, in the API's order", () => {
    const cover = uploadRules.cover;
    expect(checkSelection([{ size: 5_000, kind: "image" }], cover)).toEqual({ ok: true });
    expect(checkSelection([{ size: 5_000, kind: "pdf" }], cover)).toMatchObject({
      reason: "invalidType",
      index: 0,
    });
    // The type is checked first, as on the server.
    expect(checkSelection([{ size: 20 * MiB, kind: "pdf" }], cover)).toMatchObject({ reason: "invalidType" });
    expect(checkSelection([{ size: 10 * MiB, kind: "image" }], cover)).toEqual({ ok: true });
    expect(checkSelection([{ size: 10 * MiB + 1, kind: "image" }], cover)).toMatchObject({
      reason: "tooLarge",
    });
    expect(checkSelection([{ size: 0, kind: "image" }], cover)).toMatchObject({ reason: "tooSmall" });
    // Content takes any kind.
    expect(checkSelection([{ size: 1, kind: "other" }], uploadRules.content)).toEqual({ ok: true });
    expect(checkSelection([{ size: 500 * MiB + 1, kind: "pdf" }], uploadRules.content)).toMatchObject({
      reason: "tooLarge",
    });
  });

  it("refuses too many files, and a selection whose total passes the limit", () => {
    const two = [
      { size: 10, kind: "image" as const },
      { size: 10, kind: "image" as const },
    ];
    expect(checkSelection(two, uploadRules.avatar)).toEqual({
      ok: false,
      scope: "selection",
      reason: "maxFiles",
    });
    const multi = { accept: null, maxBytes: 100, minBytes: 1, maxFiles: 3 } as const;
    expect(checkSelection(two, multi)).toEqual({ ok: true });
    expect(
      checkSelection(
        [
          { size: 60, kind: "other" },
          { size: 60, kind: "other" },
        ],
        multi,
      ),
    ).toEqual({ ok: false, scope: "selection", reason: "maxTotalSize" });
  });

  it("maps the API's field errors, in English or already translated, to the spec's rejections", () => {
    const fr = (reason: string) => (reason === "invalidType" ? "Le type de fichier n'est pas valide" : "?");
    expect(serverRejection("File is too small", 400, fr)).toBe("tooSmall");
    expect(serverRejection("Max files", 400, fr)).toBe("maxFiles");
    expect(serverRejection("Le type de fichier n'est pas valide", 400, fr)).toBe("invalidType");
    expect(serverRejection(undefined, 413, fr)).toBe("tooLarge");
    expect(serverRejection("Something else", 400, fr)).toBeNull();
  });
});
