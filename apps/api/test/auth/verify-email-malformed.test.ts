import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsApp, PASSWORD } from "../support/accounts.ts";
import type { TestContext } from "../support/app.ts";

/*
 * Issue 17, item 15: `?emailToken=` is read on any page and sent to POST /auth/verify/email/{token}.
 * A token mangled on its way (cut short, an extra character) is an invalid link to whoever follows
 * it: the same answer as an unknown token, in the caller's language, never "Some fields are invalid".
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await accountsApp();
});
afterAll(async () => {
  await ctx.close();
});

const invalidLink = {
  en: "This verification link is invalid or has expired.",
  fr: "Ce lien de vérification n'est pas valide ou a expiré.",
  es: "Este enlace de verificación no es válido o ha caducado.",
} as const;

const malformed = [
  "not-a-token",
  "A".repeat(42),
  "A".repeat(44),
  `${"A".repeat(42)}%21`,
  "%E2%9C%93",
  // The length the route takes at most: a longer path parameter is refused by the router itself.
  "x".repeat(100),
];

describe("POST /auth/verify/email/{token} with a malformed token", () => {
  for (const [locale, message] of Object.entries(invalidLink)) {
    it(`says the link is invalid, as for an unknown token (${locale})`, async () => {
      for (const token of [...malformed, "A".repeat(43)]) {
        for (const payload of [undefined, { password: PASSWORD }]) {
          const res = await ctx.app.inject({
            method: "POST",
            url: `/auth/verify/email/${token}`,
            headers: { "accept-language": locale },
            ...(payload ? { payload } : {}),
          });
          expect(res.statusCode, token).toBe(400);
          expect(res.json(), token).toEqual({ statusCode: 400, error: "BadRequestException", message });
        }
      }
    });
  }
});
