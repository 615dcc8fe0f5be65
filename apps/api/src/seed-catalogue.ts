import { currencySchema, promoKindSchema } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import sharp from "sharp";
import type { Db } from "./db/client.ts";
import { creatorProfiles, links, portfolioEntries, promoCodes, users } from "./db/schema/index.ts";
import demo from "./demo-accounts.json" with { type: "json" };
import { storeBuffer } from "./modules/uploads/service.ts";
import type { ObjectStorage } from "./providers/storage/index.ts";

/** A landscape drawn at seed time, so the demo ships no binary files. */
async function demoPhoto(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#2b1055"/><stop offset="0.55" stop-color="#d6546b"/><stop offset="1" stop-color="#f7b267"/>
    </linearGradient></defs>
    <rect width="1200" height="800" fill="url(#sky)"/>
    <circle cx="840" cy="520" r="120" fill="#ffd27d"/>
    <path d="M0 620 L260 430 L470 600 L700 400 L1000 640 L1200 520 L1200 800 L0 800 Z" fill="#1d1a3a"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A one-page PDF, written by hand: header, objects, cross-reference table, trailer. */
function demoPdf(title: string): Buffer {
  const text = title.replace(/[()\\]/g, "");
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/**
 * The demo creator's profile, two links (a photo pack and a PDF guide, with fixed tokens so
 * `npm start` can print their URLs), a promo code and a portfolio. Seeded once: skipped when the
 * demo profile exists.
 */
export async function seedDemoCatalogue(
  db: Db,
  storage: ObjectStorage,
  log: FastifyBaseLogger,
): Promise<void> {
  const { catalogue } = demo;
  const owner = demo.accounts.find((a) => a.label === catalogue.owner);
  const [user] = owner
    ? await db.select({ id: users.id }).from(users).where(eq(users.email, owner.email))
    : [];
  if (!user) return;
  const [existing] = await db
    .select({ id: creatorProfiles.id })
    .from(creatorProfiles)
    .where(eq(creatorProfiles.handle, catalogue.profile.handle));
  if (existing) return;

  const deps = { db, storage };
  const files = {
    image: await storeBuffer(deps, user.id, "content", "golden-hour.png", await demoPhoto()),
    pdf: await storeBuffer(
      deps,
      user.id,
      "content",
      "pricing-guide.pdf",
      demoPdf(catalogue.links[1]?.title ?? "Guide"),
    ),
  };
  const cover = await storeBuffer(deps, user.id, "cover", "cover.png", await demoPhoto());

  await db.transaction(async (tx) => {
    const [profile] = await tx
      .insert(creatorProfiles)
      .values({ ownerId: user.id, ...catalogue.profile })
      .returning({ id: creatorProfiles.id });
    if (!profile) throw new Error("demo profile not inserted");
    const inserted = await tx
      .insert(links)
      .values(
        catalogue.links.map((link) => ({
          ownerId: user.id,
          profileId: profile.id,
          title: link.title,
          description: link.description,
          priceMinor: link.priceMinor,
          currency: currencySchema.parse(link.currency),
          token: link.token,
          fileId: files[link.file as keyof typeof files].id,
          coverFileId: link.file === "image" ? cover.id : null,
        })),
      )
      .returning({ id: links.id });
    await tx
      .insert(portfolioEntries)
      .values(inserted.map((link, position) => ({ profileId: profile.id, linkId: link.id, position })));
    await tx.insert(promoCodes).values({
      ownerId: user.id,
      code: catalogue.promoCode.code,
      kind: promoKindSchema.parse(catalogue.promoCode.kind),
      value: catalogue.promoCode.value,
    });
  });
  log.info({ handle: catalogue.profile.handle }, "demo catalogue seeded");
}
