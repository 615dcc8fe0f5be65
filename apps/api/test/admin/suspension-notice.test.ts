import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { suspensionOf } from "../../src/modules/admin/accounts/queries.ts";
import { accountWithSession, insertAccount, lastMail, mailsTo } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";

/*
 * A suspension holds the creator's money (issue 23): they are told why and what to do, in their
 * language, by e-mail and in their wallet (`suspensionOf`), and told again when it is lifted.
 */

let ctx: TestContext;
let admin: string;

beforeAll(async () => {
  ctx = await testApp();
  admin = (await accountWithSession(ctx.database, { onboarded: true, role: "admin" })).cookie;
});
afterAll(() => ctx?.close());

const act = (id: string, action: "suspend" | "reinstate", reason: string) =>
  ctx.app.inject({
    method: "POST",
    url: `/admin/accounts/${id}/${action}`,
    headers: { cookie: admin },
    payload: { reason },
  });

describe(`suspension notices (${dbKind})`, () => {
  it("tells a French creator the reason and the next step, by e-mail and in the wallet, then the reinstatement", async () => {
    const creator = await insertAccount(ctx.database, { onboarded: true, locale: "fr" });
    expect(await suspensionOf(ctx.database.db, creator.id)).toBeNull();

    const reason = "Plusieurs rétrofacturations sur vos ventes";
    const before = Date.now();
    expect((await act(creator.id, "suspend", reason)).statusCode).toBe(200);
    const suspension = await suspensionOf(ctx.database.db, creator.id);
    expect(suspension).toMatchObject({ reason });
    expect(new Date(suspension?.since ?? 0).getTime()).toBeGreaterThanOrEqual(before - 1000);

    const mail = await lastMail(ctx, creator.email, "account-suspended");
    expect(mail.subject).toBe("Votre compte est suspendu");
    expect(mail.text).toContain(reason);
    expect(mail.text).toContain("Que faire");
    expect(mail.text).toContain("/account/wallet");

    expect((await act(creator.id, "reinstate", "Documents reçus")).statusCode).toBe(200);
    expect(await suspensionOf(ctx.database.db, creator.id)).toBeNull();
    const back = await lastMail(ctx, creator.email, "account-reinstated");
    expect(back.subject).toBe("Votre compte est réactivé");
    expect(back.text).toContain("Documents reçus");
  });

  it("shows the reason of the latest suspension, and sends one e-mail per action", async () => {
    const creator = await insertAccount(ctx.database, { onboarded: true, locale: "es" });
    await act(creator.id, "suspend", "First reason");
    await act(creator.id, "reinstate", "Cleared");
    await act(creator.id, "suspend", "Second reason");
    expect(await suspensionOf(ctx.database.db, creator.id)).toMatchObject({ reason: "Second reason" });
    // Refused: already suspended. No e-mail for an action that did not happen.
    expect((await act(creator.id, "suspend", "Third reason")).statusCode).toBe(409);
    const mails = await mailsTo(ctx, creator.email);
    expect(mails.map((m) => m.template).sort()).toEqual([
      "account-reinstated",
      "account-suspended",
      "account-suspended",
    ]);
    expect(mails.find((m) => m.template === "account-suspended")?.subject).toBe("Tu cuenta está suspendida");
  });
});
