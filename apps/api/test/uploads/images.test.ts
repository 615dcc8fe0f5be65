import { readFile } from "node:fs/promises";
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { detectFileType } from "../../src/lib/file-types.ts";
import {
  COVER_HEIGHT,
  COVER_WIDTH,
  coverImage,
  ImageRejectedError,
  imagePreview,
  PREVIEW_MAX_WIDTH,
} from "../../src/lib/images.ts";
import { crc32 } from "../fixtures/files/crc32.ts";

const fixture = (name: string) => readFile(new URL(`../fixtures/files/${name}`, import.meta.url));

/** A real PNG header declaring `width` × `height`, with a few bytes of pixel data: a decompression bomb's shape. */
function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.alloc(1024))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

async function describeOutput(data: Buffer) {
  const meta = await sharp(data).metadata();
  return { format: meta.format, width: meta.width, height: meta.height, exif: meta.exif, xmp: meta.xmp };
}

describe("imagePreview", () => {
  it("blurs a large photo into a WebP at most 1200 px wide, same proportions, without EXIF or GPS", async () => {
    const input = await fixture("photo.jpg");
    // The fixture does carry them, so their absence below means something.
    const inputMeta = await sharp(input).metadata();
    expect(inputMeta.exif?.includes("SalelinkCam")).toBe(true);
    expect(
      inputMeta.exif?.includes("GPS", 0, "latin1") || inputMeta.exif?.includes(Buffer.from([0x25, 0x88])),
    ).toBe(true);

    const preview = await imagePreview(input, { mode: "blur" });
    expect(preview).toMatchObject({ contentType: "image/webp", width: PREVIEW_MAX_WIDTH, height: 750 });
    expect(detectFileType(preview.data).mime).toBe("image/webp");
    const out = await describeOutput(preview.data);
    expect(out).toMatchObject({ format: "webp", width: 1200, height: 750, exif: undefined, xmp: undefined });
    expect(preview.data.includes("SalelinkCam")).toBe(false);
    expect(preview.data.includes("Jane Creator")).toBe(false);
  });

  it("really blurs: neighbouring pixels differ far less than in a sharp crop", async () => {
    // Sharp edges on purpose: black and white stripes 4 px wide.
    const stripes = await sharp({ create: { width: 400, height: 200, channels: 3, background: "#fff" } })
      .composite(
        Array.from({ length: 50 }, (_, i) => ({
          input: { create: { width: 4, height: 200, channels: 3 as const, background: "#000" } },
          left: i * 8,
          top: 0,
        })),
      )
      .png()
      .toBuffer();
    const contrast = async (data: Buffer) => {
      const { data: raw, info } = await sharp(data).greyscale().raw().toBuffer({ resolveWithObject: true });
      let total = 0;
      for (let x = 1; x < info.width; x++) total += Math.abs((raw[x] ?? 0) - (raw[x - 1] ?? 0));
      return total / info.width;
    };
    const blurred = await imagePreview(stripes, { mode: "blur" });
    const cropped = await imagePreview(stripes, { mode: "crop" });
    expect(await contrast(cropped.data)).toBeGreaterThan(20);
    expect(await contrast(blurred.data)).toBeLessThan(2);
  });

  it("crops to the top 40 % and keeps a small image at its own width", async () => {
    const preview = await imagePreview(await fixture("photo.png"), { mode: "crop" });
    expect(preview).toMatchObject({ width: 800, height: 240 });
    expect(await describeOutput(preview.data)).toMatchObject({ format: "webp", width: 800, height: 240 });

    const large = await imagePreview(await fixture("photo.jpg"), { mode: "crop" });
    expect(await describeOutput(large.data)).toMatchObject({
      format: "webp",
      width: 1200,
      height: 300,
      exif: undefined,
    });
  });

  it("turns an EXIF-rotated photo upright before dropping the EXIF", async () => {
    // 400 × 300 stored, orientation 6: 300 × 400 as seen.
    const preview = await imagePreview(await fixture("portrait-rotated.jpg"), { mode: "crop" });
    expect(await describeOutput(preview.data)).toMatchObject({ width: 300, height: 160, exif: undefined });
  });

  it("accepts every image format the uploads allow", async () => {
    for (const name of ["photo.png", "photo.jpg", "photo.gif", "photo.webp"]) {
      const preview = await imagePreview(await fixture(name), { mode: "blur" });
      expect((await describeOutput(preview.data)).format).toBe("webp");
    }
  });
});

describe("coverImage", () => {
  it("makes a 1200 × 630 WebP from any proportions, without metadata", async () => {
    for (const name of ["photo.jpg", "photo.gif", "portrait-rotated.jpg"]) {
      const cover = await coverImage(await fixture(name));
      expect(cover).toMatchObject({ width: COVER_WIDTH, height: COVER_HEIGHT, contentType: "image/webp" });
      expect(await describeOutput(cover.data)).toMatchObject({
        format: "webp",
        width: 1200,
        height: 630,
        exif: undefined,
      });
    }
  });
});

describe("refusals", () => {
  it("refuses an image declaring more pixels than the limit without decoding it", async () => {
    const bomb = pngDeclaring(60_000, 60_000);
    expect(bomb.length).toBeLessThan(2000);
    await expect(imagePreview(bomb, { mode: "blur" })).rejects.toMatchObject({ reason: "too-many-pixels" });
    await expect(coverImage(bomb)).rejects.toBeInstanceOf(ImageRejectedError);
    // Just over 50 megapixels is refused as well; a limit can also be set per call.
    await expect(coverImage(pngDeclaring(10_000, 5_001))).rejects.toMatchObject({
      reason: "too-many-pixels",
    });
    await expect(coverImage(await fixture("photo.png"), { maxPixels: 1000 })).rejects.toMatchObject({
      reason: "too-many-pixels",
    });
  });

  it("refuses what is not an image", async () => {
    await expect(imagePreview(await fixture("document.pdf"), { mode: "crop" })).rejects.toMatchObject({
      reason: "unreadable",
    });
    await expect(coverImage(Buffer.from("not an image"))).rejects.toMatchObject({ reason: "unreadable" });
  });
});
