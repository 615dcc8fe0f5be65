#!/usr/bin/env node
/**
 * Writes public/favicon.ico from public/icon.svg: browsers and crawlers ask for /favicon.ico
 * whatever the page links, and a 404 there is a console error on every first visit (issue 17).
 * An ICO holding 16, 32 and 48 px PNG images (PNG inside ICO: every current browser reads it).
 *
 *   node scripts/favicon.mjs
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";

const publicDir = path.resolve(import.meta.dirname, "..", "public");
const svg = readFileSync(path.join(publicDir, "icon.svg"));
const sizes = [16, 32, 48];
const images = await Promise.all(
  sizes.map((size) =>
    sharp(svg, { density: 72 * (size / 16) })
      .resize(size, size)
      .png()
      .toBuffer(),
  ),
);

// ICONDIR (6 bytes), one ICONDIRENTRY (16 bytes) per image, then the images.
const header = Buffer.alloc(6 + 16 * images.length);
header.writeUInt16LE(0, 0); // reserved
header.writeUInt16LE(1, 2); // type: icon
header.writeUInt16LE(images.length, 4);
let offset = header.length;
images.forEach((png, i) => {
  const entry = 6 + 16 * i;
  const size = sizes[i] ?? 0;
  header.writeUInt8(size % 256, entry); // width (0 means 256)
  header.writeUInt8(size % 256, entry + 1); // height
  header.writeUInt8(0, entry + 2); // no palette
  header.writeUInt8(0, entry + 3); // reserved
  header.writeUInt16LE(1, entry + 4); // colour planes
  header.writeUInt16LE(32, entry + 6); // bits per pixel
  header.writeUInt32LE(png.length, entry + 8);
  header.writeUInt32LE(offset, entry + 12);
  offset += png.length;
});
writeFileSync(path.join(publicDir, "favicon.ico"), Buffer.concat([header, ...images]));
console.log(`public/favicon.ico: ${sizes.join(", ")} px, ${offset} bytes`);
