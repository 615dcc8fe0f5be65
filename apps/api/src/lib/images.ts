import sharp, { type Metadata, type Sharp } from "sharp";

/**
 * Decoding is refused above this many pixels: a few kilobytes of PNG can declare a 100,000 ×
 * 100,000 canvas and take gigabytes of memory to decode (a decompression bomb).
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
export const PREVIEW_MAX_WIDTH = 1200;
/** Open Graph's recommended card size, which Twitter's large card also uses. */
export const COVER_WIDTH = 1200;
export const COVER_HEIGHT = 630;
/** Strong enough that a blurred preview gives away the composition, not the content. */
export const PREVIEW_BLUR_SIGMA = 30;
/** The share of the image's height a cropped preview shows, from the top. */
export const PREVIEW_CROP_RATIO = 0.4;
const WEBP_QUALITY = 80;

export type ImageRejection = "too-many-pixels" | "unreadable";

export class ImageRejectedError extends Error {
  constructor(
    readonly reason: ImageRejection,
    message: string,
  ) {
    super(message);
  }
}

export interface ImageLimits {
  maxPixels?: number;
}

export interface ImageOutput {
  data: Buffer;
  width: number;
  height: number;
  contentType: "image/webp";
}

/**
 * Reads the header only (no decoding) and refuses what is too big or not an image, then opens the
 * decoder with the same limit as a second guard. Dimensions are returned upright (EXIF orientation
 * applied), as the outputs will be.
 */
async function openImage(
  buffer: Buffer,
  limits: ImageLimits,
): Promise<{ image: Sharp; width: number; height: number }> {
  const maxPixels = limits.maxPixels ?? MAX_IMAGE_PIXELS;
  let meta: Metadata;
  try {
    meta = await sharp(buffer, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejectedError("unreadable", "Not an image this server can read");
  }
  const { width, height } = meta;
  if (!width || !height) throw new ImageRejectedError("unreadable", "The image has no dimensions");
  if (width * height > maxPixels)
    throw new ImageRejectedError("too-many-pixels", `The image has more than ${maxPixels} pixels`);
  // Orientations 5 to 8 turn the picture a quarter: width and height swap once it is upright.
  const turned = (meta.orientation ?? 1) >= 5;
  const image = sharp(buffer, { limitInputPixels: maxPixels }).rotate();
  return { image, width: turned ? height : width, height: turned ? width : height };
}

async function toWebp(image: Sharp): Promise<ImageOutput> {
  // sharp writes no metadata unless asked (withMetadata/keepExif): EXIF, GPS and XMP stay behind.
  try {
    const { data, info } = await image.webp({ quality: WEBP_QUALITY }).toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, contentType: "image/webp" };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message))
      throw new ImageRejectedError("too-many-pixels", "The image exceeds the pixel limit");
    throw new ImageRejectedError("unreadable", "The image could not be decoded");
  }
}

/**
 * What a buyer sees before paying: at most PREVIEW_MAX_WIDTH wide, either blurred all over or only
 * the top PREVIEW_CROP_RATIO of the picture, as WebP without metadata.
 */
export async function imagePreview(
  buffer: Buffer,
  options: { mode: "blur" | "crop" } & ImageLimits,
): Promise<ImageOutput> {
  const { image, width, height } = await openImage(buffer, options);
  const outWidth = Math.min(PREVIEW_MAX_WIDTH, width);
  const outHeight = Math.max(1, Math.round((height * outWidth) / width));
  const resized = image.resize({ width: outWidth, height: outHeight, fit: "fill" });
  if (options.mode === "blur") return toWebp(resized.blur(PREVIEW_BLUR_SIGMA));
  const cropHeight = Math.max(1, Math.round(outHeight * PREVIEW_CROP_RATIO));
  return toWebp(resized.extract({ left: 0, top: 0, width: outWidth, height: cropHeight }));
}

/** The Open Graph / Twitter card image: COVER_WIDTH × COVER_HEIGHT WebP, cropped to the busiest area. */
export async function coverImage(buffer: Buffer, limits: ImageLimits = {}): Promise<ImageOutput> {
  const { image } = await openImage(buffer, limits);
  return toWebp(
    image.resize({
      width: COVER_WIDTH,
      height: COVER_HEIGHT,
      fit: "cover",
      position: sharp.strategy.attention,
    }),
  );
}
