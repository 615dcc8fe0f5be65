import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithSession } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

let ctx: TestContext;
let creatorCookie: string;
const helpers = checkoutHelpers(() => ctx);

/** A report from one reporter (address and browser), in the caller's language. */
const report = (token: string, userAgent: string, locale = "en") =>
  ctx.app.inject({
    method: "POST",
    url: "/report",
    headers: { "user-agent": userAgent, "accept-language": locale },
    payload: { token, reason: "not-as-described", message: "The files are not the ones shown." },
  });

beforeAll(async () => {
  // A low daily cap, so that reaching it does not need three links per report allowance.
  ctx = await testApp({ REPORTS_PER_DAY_MAX: "4" });
  creatorCookie = (await accountWithSession(ctx.database, { onboarded: true })).cookie;
});
afterAll(() => ctx.close());

describe("POST /report refusals", () => {
  it("says 'already reported' for the same link, and names the daily cap when that is what refuses", async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => helpers.newLink(creatorCookie)));
    if (!a || !b || !c) throw new Error("links");

    // The same link a fourth time: the per-link rule, with its own message.
    const sameLink = "Mozilla/5.0 same-link";
    for (let i = 0; i < 3; i++) expect((await report(a.token, sameLink)).statusCode).toBe(201);
    const again = await report(a.token, sameLink);
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({
      error: "RateLimitException",
      message: "You have already reported this. Our team will look at it.",
    });

    // Four reports on different links use the day's allowance: a fifth, on a link never reported
    // by this reporter, is refused by the cap and says so, in the caller's language.
    const capped = "Mozilla/5.0 daily-cap";
    for (const token of [a.token, a.token, b.token, b.token])
      expect((await report(token, capped)).statusCode).toBe(201);
    const refused = await report(c.token, capped);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      statusCode: 429,
      error: "ReportLimitException",
      message: "You have sent 4 reports today, the most we accept in a day. Please try again tomorrow.",
    });
    const french = await report(c.token, capped, "fr");
    expect(french.json()).toMatchObject({
      error: "ReportLimitException",
      message:
        "Vous avez envoyé 4 signalements aujourd'hui, le maximum que nous acceptons par jour. Veuillez réessayer demain.",
    });
    const spanish = await report(c.token, capped, "es");
    expect(spanish.json<{ message: string }>().message).toBe(
      "Has enviado 4 denuncias hoy, el máximo que aceptamos al día. Inténtalo de nuevo mañana.",
    );

    // Another reporter is not affected.
    expect((await report(c.token, "Mozilla/5.0 someone-else")).statusCode).toBe(201);
  });
});
