import type { APIRequestContext, Page } from "@playwright/test";
import { apiAs, demoEmail, demoPassword, expect, test, watchConsole } from "../fixtures.ts";

async function signInAsCreator(page: Page, words: { email: string; password: string; signIn: string }) {
  await page.goto("/signin");
  await page.getByLabel(words.email).fill(demoEmail("creator"));
  await page.getByLabel(words.password).fill(demoPassword);
  await page.getByRole("button", { name: words.signIn }).click();
  // A first visit may compile the dashboard in development: allow it time.
  await expect(page).toHaveURL(/\/account$/, { timeout: 30_000 });
}

interface SeededLink {
  id: string;
  token: string;
  title: string;
}
interface Seeded {
  api: APIRequestContext;
  profileId: string;
  links: SeededLink[];
}

/** A profile of the demo creator with links of its own, titled uniquely for this run. */
async function seed(stamp: string, names: string[]): Promise<Seeded> {
  const api = await apiAs("creator");
  const profile = await api.post("/profiles", {
    data: { displayName: `Portfolio E2E ${stamp}`, handle: `pf${stamp}` },
  });
  expect(profile.status()).toBe(201);
  const { id: profileId } = (await profile.json()) as { id: string };
  const links: SeededLink[] = [];
  for (const [i, name] of names.entries()) {
    const title = `${name} ${stamp}`;
    const res = await api.post("/links", {
      data: { profileId, title, priceMinor: 1000 + i * 250, currency: "EUR" },
    });
    expect(res.status()).toBe(201);
    const { id, token } = (await res.json()) as { id: string; token: string };
    links.push({ id, token, title });
  }
  // New links are on the creator page by default: these journeys start from a portfolio that
  // shows none, as if the creator had hidden them all.
  const hidden = await api.put(`/profiles/${profileId}/portfolio`, { data: { linkIds: [] } });
  expect(hidden.status()).toBe(200);
  return { api, profileId, links };
}

async function cleanUp({ api, profileId, links }: Seeded) {
  await api.put(`/profiles/${profileId}/portfolio`, { data: { linkIds: [] } });
  for (const link of links) await api.delete(`/links/${link.id}`);
  await api.delete(`/profiles/${profileId}`);
  await api.dispose();
}

async function pause(api: APIRequestContext, link: SeededLink) {
  const res = await api.patch(`/links/${link.id}`, { data: { status: "paused" } });
  expect(res.status()).toBe(200);
}

const nth = (links: SeededLink[], i: number): SeededLink => {
  const link = links[i];
  if (!link) throw new Error(`no seeded link ${i}`);
  return link;
};

test.describe("portfolio", () => {
  test.setTimeout(90_000);

  test("pick links, reorder, save, reload and see the saved order on the creator page", async ({
    page,
    consoleErrors: _,
  }) => {
    const stamp = Date.now().toString(36);
    const seeded = await seed(stamp, ["Link A", "Link B", "Link C", "Link D"]);
    const [a, b, c, d] = [0, 1, 2, 3].map((i) => nth(seeded.links, i)) as [
      SeededLink,
      SeededLink,
      SeededLink,
      SeededLink,
    ];
    await pause(seeded.api, d);
    try {
      await signInAsCreator(page, { email: "E-mail", password: "Password", signIn: "Sign in" });
      await page
        .getByRole("navigation", { name: "Account" })
        .getByRole("link", { name: "Portfolio" })
        .click();
      await expect(page).toHaveURL(/\/account\/portfolio$/, { timeout: 30_000 });
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Portfolio");
      await page.getByLabel("Profile").selectOption(seeded.profileId);
      await expect(page.getByRole("link", { name: "View my creator page" })).toHaveAttribute(
        "href",
        new RegExp(`/c/${seeded.profileId}$`),
      );

      const shown = page.getByRole("list", { name: /Shown on your creator page/ });
      const notShown = page.getByRole("list", { name: /Not shown/ });
      const unavailable = page.getByRole("list", { name: /Cannot be shown/ });
      await expect(page.getByText("No link is shown yet")).toBeVisible();
      await expect(notShown.getByRole("listitem")).toHaveCount(3);
      // The paused link cannot be chosen, and the page says why.
      await expect(unavailable.getByRole("listitem", { name: d.title })).toContainText("Paused");
      await expect(unavailable.getByRole("checkbox")).toHaveCount(0);
      await expect(page.getByText(/Paused links are not for sale/)).toBeVisible();

      for (const link of [a, b, c]) await page.getByRole("checkbox", { name: link.title }).check();
      await expect(shown.getByRole("listitem")).toHaveText([
        new RegExp(a.title),
        new RegExp(b.title),
        new RegExp(c.title),
      ]);
      await expect(page.getByText("Every active link of this profile is shown.")).toBeVisible();
      await expect(page.getByRole("status").filter({ hasText: "Unsaved changes" })).toBeVisible();

      // C up one, then A down one: C, A... via the keyboard-reachable buttons, which keep focus.
      await expect(page.getByRole("button", { name: `Move up: ${a.title}` })).toBeDisabled();
      await expect(page.getByRole("button", { name: `Move down: ${c.title}` })).toBeDisabled();
      await page.getByRole("button", { name: `Move up: ${c.title}` }).click();
      await expect(page.getByRole("button", { name: `Move up: ${c.title}` })).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(shown.getByRole("listitem")).toHaveText([
        new RegExp(c.title),
        new RegExp(a.title),
        new RegExp(b.title),
      ]);
      // At the top its "Move up" is disabled: focus went to "Move down".
      await expect(page.getByRole("button", { name: `Move down: ${c.title}` })).toBeFocused();
      await page.getByRole("button", { name: `Move down: ${a.title}` }).click();
      await page.getByRole("button", { name: `Move up: ${a.title}` }).click();
      await expect(shown.getByRole("listitem")).toHaveText([
        new RegExp(c.title),
        new RegExp(a.title),
        new RegExp(b.title),
      ]);

      await page.getByRole("button", { name: "Save order" }).click();
      await expect(
        page.locator("[data-sonner-toast][data-type='success']").filter({ hasText: "Portfolio saved" }),
      ).toBeVisible();
      await expect(page.getByRole("status").filter({ hasText: "All changes saved" })).toBeVisible();

      await page.reload();
      await page.getByLabel("Profile").selectOption(seeded.profileId);
      await expect(shown.getByRole("listitem")).toHaveText([
        new RegExp(c.title),
        new RegExp(a.title),
        new RegExp(b.title),
      ]);
      await expect(notShown).toHaveCount(0);

      // The public creator page lists them in that order.
      const creator = await seeded.api.get(`/creators/${seeded.profileId}`);
      expect(creator.status()).toBe(200);
      const body = (await creator.json()) as { links: { token: string }[] };
      expect(body.links.map((l) => l.token)).toEqual([c.token, a.token, b.token]);

      // Unticking takes a link off the page.
      await page.getByRole("checkbox", { name: a.title }).uncheck();
      await expect(shown.getByRole("listitem")).toHaveText([new RegExp(c.title), new RegExp(b.title)]);
      await expect(notShown.getByRole("listitem", { name: a.title })).toBeVisible();
    } finally {
      await cleanUp(seeded);
    }
  });

  test("in French: a link paused meanwhile is refused under it", async ({ browser }) => {
    const stamp = `${Date.now().toString(36)}f`;
    const seeded = await seed(stamp, ["Lien X", "Lien Y"]);
    const [x, y] = [nth(seeded.links, 0), nth(seeded.links, 1)];
    const context = await browser.newContext({ locale: "fr-FR" });
    const page = await context.newPage();
    const consoleErrors = watchConsole(page);
    try {
      await signInAsCreator(page, { email: "E-mail", password: "Mot de passe", signIn: "Se connecter" });
      await page.goto("/account/portfolio");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Portfolio");
      await page.getByLabel("Profil").selectOption(seeded.profileId);
      await page.getByRole("checkbox", { name: x.title }).check();
      await page.getByRole("checkbox", { name: y.title }).check();
      await pause(seeded.api, y);
      await page.getByRole("button", { name: "Enregistrer l'ordre" }).click();
      const row = page.getByRole("listitem", { name: y.title });
      await expect(row.getByText("Seuls les liens actifs peuvent être affichés.")).toBeVisible();
      await expect(page.getByRole("checkbox", { name: y.title })).toHaveAccessibleDescription(
        "Seuls les liens actifs peuvent être affichés.",
      );
      await expect(
        page
          .locator("[data-sonner-toast][data-type='error']")
          .filter({ hasText: "Impossible d'enregistrer le portfolio." }),
      ).toBeVisible();
      expect(consoleErrors, "browser console errors").toEqual([]);
    } finally {
      await context.close();
      await cleanUp(seeded);
    }
  });
});
