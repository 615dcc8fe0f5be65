import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "./db/client.ts";
import { campaigns, users } from "./db/schema/index.ts";
import demo from "./demo-accounts.json" with { type: "json" };
import { hashPassword } from "./lib/passwords.ts";

/** Demo accounts for a fresh machine; existing rows are left untouched. */
export async function seedDemo(db: Db, log: FastifyBaseLogger): Promise<void> {
  const passwordHash = await hashPassword(demo.password);
  const now = new Date();
  const inserted = await db
    .insert(users)
    .values(
      demo.accounts.map((a) => ({
        email: a.email,
        passwordHash,
        role: a.role === "admin" ? ("admin" as const) : ("user" as const),
        emailVerifiedAt: now,
        onboardingCompletedAt: now,
      })),
    )
    .onConflictDoNothing({ target: users.email })
    .returning({ email: users.email });
  if (inserted.length > 0) log.info({ accounts: inserted.map((r) => r.email) }, "demo accounts seeded");
  const owner = demo.accounts.find((a) => a.label === demo.campaign.owner);
  const [ownerRow] = owner
    ? await db.select({ id: users.id }).from(users).where(eq(users.email, owner.email))
    : [];
  if (ownerRow) {
    await db
      .insert(campaigns)
      .values({ ownerId: ownerRow.id, name: demo.campaign.name, token: demo.campaign.token })
      .onConflictDoNothing({ target: campaigns.token });
  }
}
