import { type APIRequestContext, request } from "@playwright/test";
import { apiAs, expect, test } from "../fixtures.ts";
import { apiUrl, webUrl } from "../playwright.config.ts";

/**
 * Issue 17, item 6: the spec's "link report modal" on the link purchase view, under both prefixes,
 * for anonymous visitors; when the daily report cap refuses a report, the modal says so.
 */

/** Reports are counted per reporter (address and browser): each test reports as a browser of its own. */
const browserOf = (label: string) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36 ${label}${Date.now()}${Math.random().toString(36).slice(2, 6)}`;

/** New links of a new profile of the demo creator: their tokens. */
async function newLinks(count: number): Promise<string[]> {
  const creator = await apiAs("creator");
  try {
    const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const profile = await creator.post("/profiles", {
      data: { displayName: "Report Shop", handle: `report_${suffix}` },
    });
    expect(profile.status(), await profile.text()).toBe(201);
    const { id: profileId } = (await profile.json()) as { id: string };
    const tokens: string[] = [];
    for (let i = 0; i < count; i++) {
      const link = await creator.post("/links", {
        data: { profileId, title: `Reported pack ${suffix} ${i}`, priceMinor: 1500, currency: "EUR" },
      });
      expect(link.status(), await link.text()).toBe(201);
      tokens.push(((await link.json()) as { token: string }).token);
    }
    return tokens;
  } finally {
    await creator.dispose();
  }
}

for (const prefix of ["/v", "/app/links"] as const) {
  test.describe(`the link report modal on ${prefix}/{token}`, () => {
    test.use({ userAgent: browserOf(`LinkReport${prefix.replace(/\//g, "-")}`) });

    test("an anonymous visitor opens it, sends a report and sees the thanks", async ({
      page,
      consoleErrors: _,
    }) => {
      const [token] = await newLinks(1);
      await page.goto(`${prefix}/${token}`);
      await expect(page.getByText("Something wrong with this product?")).toBeVisible();
      await page.getByRole("button", { name: "Report" }).click();
      const dialog = page.getByRole("dialog", { name: "Report this link" });
      await expect(dialog).toBeVisible();
      await expect(
        dialog.getByText("Our team reads every report. The creator does not see who sent it."),
      ).toBeVisible();
      await expect(dialog.getByLabel("Reason")).toBeFocused();

      await dialog.getByRole("button", { name: "Send report" }).click();
      await expect(dialog.getByText("Choose a reason.")).toBeVisible();
      await dialog.getByLabel("Reason").selectOption({ label: "Illegal content" });
      await dialog.getByLabel("What happened?").fill("This product shows someone else's photos.");
      const sent = page.waitForResponse(
        (r) => r.url().endsWith("/report") && r.request().method() === "POST",
      );
      await dialog.getByRole("button", { name: "Send report" }).click();
      expect((await sent).status()).toBe(201);
      await expect(page.getByText("Thank you. Our team will look at your report.")).toBeVisible();
      await expect(dialog).toBeHidden();
    });
  });
}

test.describe("the daily report cap", () => {
  const userAgent = browserOf("ReportCap");
  test.use({ userAgent, locale: "fr-FR", extraHTTPHeaders: { "accept-language": "fr" } });

  test("a visitor past the day's reports is told so, in their language, not 'already reported'", async ({
    page,
    consoleErrors: _,
  }) => {
    // The default cap (10 a day, REPORTS_PER_DAY_MAX) reached through the API as the same browser:
    // three reports on each of three links (the per-link rule allows three), one on a fourth.
    const tokens = await newLinks(5);
    const reporter: APIRequestContext = await request.newContext({
      baseURL: apiUrl,
      extraHTTPHeaders: { origin: webUrl, "user-agent": userAgent },
    });
    try {
      for (const token of [
        ...Array(3).fill(tokens[0]),
        ...Array(3).fill(tokens[1]),
        ...Array(3).fill(tokens[2]),
        tokens[3],
      ]) {
        const res = await reporter.post("/report", {
          data: { token, reason: "other", message: "Filling the day's report allowance." },
        });
        expect(res.status(), await res.text()).toBe(201);
      }
    } finally {
      await reporter.dispose();
    }

    await page.context().addCookies([{ name: "NEXT_LOCALE", value: "fr", url: webUrl }]);
    await page.goto(`/app/links/${tokens[4]}`);
    await expect(page.getByText("Un problème avec ce produit ?")).toBeVisible();
    await page.getByRole("button", { name: "Signaler" }).click();
    const dialog = page.getByRole("dialog", { name: "Signaler ce lien" });
    await dialog.getByLabel("Motif").selectOption({ label: "Contenu illégal" });
    await dialog
      .getByLabel("Que s'est-il passé ?")
      .fill("Ce produit montre les photos de quelqu'un d'autre.");
    await dialog.getByRole("button", { name: "Envoyer le signalement" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(
      "Vous avez envoyé 10 signalements aujourd'hui, le maximum que nous acceptons par jour. Veuillez réessayer demain.",
    );
    await expect(dialog.getByRole("alert")).not.toContainText("déjà");
  });
});
