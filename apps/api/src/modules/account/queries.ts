import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { onboardingProfiles, users } from "../../db/schema/index.ts";

type OnboardingValues = Omit<typeof onboardingProfiles.$inferInsert, "userId">;

/** Writes the account's one onboarding profile, replacing an earlier one. */
export async function upsertOnboardingProfile(
  db: DbOrTx,
  userId: string,
  values: OnboardingValues,
): Promise<void> {
  await db
    .insert(onboardingProfiles)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: onboardingProfiles.userId, set: values });
}

export async function markOnboardingCompleted(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ onboardingCompletedAt: new Date(), updatedAt: new Date() })
    .where(eq(users.id, userId));
}

export async function findOnboardingProfile(db: DbOrTx, userId: string) {
  const [row] = await db
    .select()
    .from(onboardingProfiles)
    .where(eq(onboardingProfiles.userId, userId))
    .limit(1);
  return row ?? null;
}
