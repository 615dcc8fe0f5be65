import type { OnboardingBody } from "@salelink/contracts";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../lib/errors.ts";
import { findOnboardingProfile, markOnboardingCompleted, upsertOnboardingProfile } from "./queries.ts";

/** Individuals must be adults to sell and be paid. */
const MIN_AGE_YEARS = 18;

function ageOn(dateOfBirth: string, today: Date): number {
  const [y = 0, m = 1, d = 1] = dateOfBirth.split("-").map(Number);
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d)) age -= 1;
  return age;
}

export async function completeOnboarding(db: Db, userId: string, body: OnboardingBody): Promise<void> {
  if (body.kind === "individual" && ageOn(body.dateOfBirth, new Date()) < MIN_AGE_YEARS) {
    throw new AppError("ValidationException", "Some fields are invalid.", {
      errors: { dateOfBirth: ["You must be at least {age} years old."] },
      params: { age: MIN_AGE_YEARS },
    });
  }
  const common = {
    kind: body.kind,
    addressLine1: body.address.line1,
    addressLine2: body.address.line2 || null,
    city: body.address.city,
    postalCode: body.address.postalCode,
    country: body.address.country,
    updatedAt: new Date(),
  };
  const values =
    body.kind === "individual"
      ? {
          ...common,
          firstName: body.firstName,
          lastName: body.lastName,
          dateOfBirth: body.dateOfBirth,
          companyName: null,
          registrationNumber: null,
          vatNumber: null,
        }
      : {
          ...common,
          companyName: body.companyName,
          registrationNumber: body.registrationNumber,
          vatNumber: body.vatNumber ?? null,
          firstName: null,
          lastName: null,
          dateOfBirth: null,
        };
  await db.transaction(async (tx) => {
    await upsertOnboardingProfile(tx, userId, values);
    await markOnboardingCompleted(tx, userId);
  });
}

export async function readOnboarding(db: Db, userId: string): Promise<OnboardingBody | null> {
  const row = await findOnboardingProfile(db, userId);
  if (!row) return null;
  const address = {
    line1: row.addressLine1,
    ...(row.addressLine2 ? { line2: row.addressLine2 } : {}),
    city: row.city,
    postalCode: row.postalCode,
    country: row.country as OnboardingBody["address"]["country"],
  };
  return row.kind === "individual"
    ? {
        kind: "individual",
        firstName: row.firstName ?? "",
        lastName: row.lastName ?? "",
        dateOfBirth: row.dateOfBirth ?? "",
        address,
      }
    : {
        kind: "professional",
        companyName: row.companyName ?? "",
        registrationNumber: row.registrationNumber ?? "",
        ...(row.vatNumber ? { vatNumber: row.vatNumber } : {}),
        address,
      };
}
