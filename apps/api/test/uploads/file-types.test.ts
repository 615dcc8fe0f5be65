import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { checkUpload, detectFileType, SNIFF_BYTES } from "../../src/lib/file-types.ts";

const fixture = (name: string) => readFile(new URL(`../fixtures/files/${name}`, import.meta.url));

/** What an upload route would pass: the head of the file, the client's name, the full size. */
async function upload(name: string, declaredName = name) {
  const bytes = await fixture(name);
  return { bytes: bytes.subarray(0, SNIFF_BYTES), declaredName, size: bytes.length };
}

describe("detectFileType", () => {
  it.each([
    ["photo.png", "image/png", "image"],
    ["photo.jpg", "image/jpeg", "image"],
    ["photo.gif", "image/gif", "image"],
    ["photo.webp", "image/webp", "image"],
    ["header-sample.mp4", "video/mp4", "video"],
    ["header-sample.mov", "video/quicktime", "video"],
    ["header-sample.webm", "video/webm", "video"],
    ["silence.mp3", "audio/mpeg", "audio"],
    ["tone.wav", "audio/wav", "audio"],
    ["opus.ogg", "audio/ogg", "audio"],
    ["header-sample.m4a", "audio/mp4", "audio"],
    ["document.pdf", "application/pdf", "pdf"],
    ["archive.zip", "application/zip", "archive"],
    ["archive.gz", "application/gzip", "archive"],
    ["archive.7z", "application/x-7z-compressed", "archive"],
    ["header-sample.rar", "application/vnd.rar", "archive"],
    ["notes.txt", "application/octet-stream", "other"],
  ])("%s is %s (%s)", async (name, mime, kind) => {
    const type = detectFileType(await fixture(name));
    expect(type.mime).toBe(mime);
    expect(type.kind).toBe(kind);
  });

  it("recognises an MP3 that opens on an ID3 tag, and ADTS AAC apart from MP3", async () => {
    const frames = await fixture("silence.mp3");
    const id3 = Buffer.concat([Buffer.from("ID3\x04\x00\x00\x00\x00\x00\x00", "latin1"), frames]);
    expect(detectFileType(id3).mime).toBe("audio/mpeg");
    expect(detectFileType(Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc])).mime).toBe("audio/aac");
  });

  it("answers octet-stream for empty, truncated and text input", () => {
    expect(detectFileType(new Uint8Array()).kind).toBe("other");
    expect(detectFileType(Buffer.from([0x89, 0x50, 0x4e])).kind).toBe("other");
    expect(detectFileType(Buffer.from("RIFF")).kind).toBe("other");
    expect(detectFileType(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>")).kind).toBe("other");
  });

  it("reads a subarray at an offset of a larger buffer correctly", async () => {
    const pdf = await fixture("document.pdf");
    const padded = Buffer.concat([Buffer.from("junk-before"), pdf]);
    expect(detectFileType(padded.subarray(11)).mime).toBe("application/pdf");
    // And the junk itself is not a PDF: only the start of a file counts.
    expect(detectFileType(padded).mime).toBe("application/octet-stream");
  });
});

describe("checkUpload", () => {
  it("accepts anything of any size by default (spec section 5)", async () => {
    for (const name of ["notes.txt", "archive.7z", "photo.jpg"]) {
      expect(checkUpload(await upload(name), {})).toMatchObject({ ok: true });
    }
    expect(checkUpload({ bytes: new Uint8Array(), size: 0 })).toMatchObject({
      ok: true,
      type: { kind: "other" },
    });
  });

  it("judges by the bytes: a PDF named .png is a PDF and refused where only images are accepted", async () => {
    const renamed = await upload("document.pdf", "holiday.png");
    const result = checkUpload(renamed, { accept: ["image"] });
    expect(result).toEqual({
      ok: false,
      reason: "invalid-type",
      type: expect.objectContaining({ mime: "application/pdf" }),
    });
    expect(checkUpload(renamed, { accept: ["image/png"] })).toMatchObject({
      ok: false,
      reason: "invalid-type",
    });
    expect(checkUpload(renamed, { accept: [".png"] })).toMatchObject({ ok: false, reason: "invalid-type" });
    // And a real image named .pdf passes as the image it is.
    expect(checkUpload(await upload("photo.png", "invoice.pdf"), { accept: ["image"] })).toMatchObject({
      ok: true,
      type: { mime: "image/png" },
    });
  });

  it("takes kinds, MIME types, wildcards and extensions in accept", async () => {
    const mp3 = await upload("silence.mp3");
    expect(checkUpload(mp3, { accept: ["audio"] }).ok).toBe(true);
    expect(checkUpload(mp3, { accept: ["audio/*"] }).ok).toBe(true);
    expect(checkUpload(mp3, { accept: ["audio/mpeg"] }).ok).toBe(true);
    expect(checkUpload(mp3, { accept: [".mp3"] }).ok).toBe(true);
    expect(checkUpload(mp3, { accept: ["image", "video/*", "application/pdf", ".zip"] }).ok).toBe(false);
    const jpeg = await upload("photo.jpg");
    expect(checkUpload(jpeg, { accept: [".jpg"] }).ok).toBe(true);
    expect(checkUpload(jpeg, { accept: [" Image/JPEG "] }).ok).toBe(true);
    expect(checkUpload(await upload("archive.zip"), { accept: ["archive"] }).ok).toBe(true);
    expect(checkUpload(await upload("notes.txt"), { accept: ["other"] }).ok).toBe(true);
    expect(
      checkUpload(await upload("notes.txt"), { accept: ["image", "video", "audio", "pdf", "archive"] }).ok,
    ).toBe(false);
  });

  it("refuses by size with the limits given, at their exact bounds", async () => {
    const file = await upload("tone.wav");
    expect(checkUpload(file, { maxBytes: file.size }).ok).toBe(true);
    expect(checkUpload(file, { maxBytes: file.size - 1 })).toMatchObject({ ok: false, reason: "too-large" });
    expect(checkUpload(file, { minBytes: file.size }).ok).toBe(true);
    expect(checkUpload(file, { minBytes: file.size + 1 })).toMatchObject({ ok: false, reason: "too-small" });
    // The full size counts, not the sniffed head.
    expect(checkUpload({ ...file, size: 10_000_000 }, { maxBytes: 5_000_000 })).toMatchObject({
      reason: "too-large",
    });
  });

  it("reports the type before the size", async () => {
    const pdf = await upload("document.pdf");
    expect(checkUpload(pdf, { accept: ["image"], maxBytes: 1 })).toMatchObject({ reason: "invalid-type" });
  });
});
