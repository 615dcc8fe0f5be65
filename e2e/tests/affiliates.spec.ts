import { type APIRequestContext, type Page, request } from "@playwright/test";
import { expect, mailedLink, signInAs, test, uniqueEmail, watchConsole } from "../fixtures.ts";
import { apiUrl, webUrl } from "../playwright.config.ts";
import { freshAccount, PASSWORD, signIn } from "./identity-helpers.ts";
import { sellOnce } from "./sale-helpers.ts";

/** The sign-in page's words in Spanish. */
const esSignIn = { email: "Correo electrónico", password: "Contraseña", signIn: "Iniciar sesión" };

const toast = (page: Page, type: "success" | "error", text: string) =>
  page.locator(`[data-sonner-toast][data-type='${type}']`).filter({ hasText: text });

/** The value shown under a campaign's figure ("Clicks", "Registros"…). */
const figure = (page: Page, campaign: string, term: string) =>
  page
    .getByRole("listitem", { name: campaign })
    .getByRole("term")
    .getByText(term, { exact: true })
    .locator("xpath=following-sibling::dd[1]");

/** Reloads until `check` passes: clicks are written in batches, so a count may lag a moment. */
async function reloadUntil(page: Page, check: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout: 30_000, intervals: [1_000, 2_000] });
}

/** Signs the stranger's new account in through the API, confirms its e-mail and onboards it. */
async function becomeCreator(email: string): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: apiUrl, extraHTTPHeaders: { origin: webUrl } });
  const token = new URL(await mailedLink(email, "emailToken=")).searchParams.get("emailToken");
  expect((await api.post(`/auth/verify/email/${token}`)).status()).toBe(200);
  expect((await api.post("/auth/signin", { data: { email, password: PASSWORD } })).status()).toBe(200);
  const onboarding = await api.post("/profile/onboarding", {
    data: {
      kind: "individual",
      firstName: "Grace",
      lastName: "Hopper",
      dateOfBirth: "1990-12-09",
      address: { line1: "12 Calle Mayor", city: "Madrid", postalCode: "28013", country: "ES" },
    },
  });
  expect(onboarding.status()).toBe(200);
  return api;
}

test.describe("affiliates", () => {
  test("a stranger follows a campaign link, signs up and sells; the referrer claims in Spanish", async ({
    browser,
    page: _unused,
    consoleErrors: _,
  }) => {
    // Two accounts, a sale through the sandbox and several page loads in two browsers.
    test.setTimeout(180_000);
    const stamp = Date.now().toString(36);
    const referrer = await freshAccount("aff-referrer", "individual", "es");

    // The referrer, in Spanish, creates a campaign and copies its link.
    const referrerContext = await browser.newContext({ locale: "es-ES" });
    await referrerContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: webUrl });
    const page = await referrerContext.newPage();
    const referrerErrors = watchConsole(page);
    await signIn(page, referrer.email, esSignIn);
    await page.getByRole("navigation", { name: "Cuenta" }).getByRole("link", { name: "Afiliados" }).click();
    await expect(page).toHaveURL(/\/account\/affiliates$/, { timeout: 30_000 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Afiliados");
    await expect(page.getByRole("button", { name: "Nada que reclamar" })).toBeDisabled();
    // The programme's figures come from the API's configuration.
    await expect(
      page.getByRole("definition").getByText(/^20\s%\sde la comisión de la plataforma$/),
    ).toBeVisible();

    const name = `Blog ${stamp}`;
    await page.getByLabel("Nueva campaña").fill(name);
    await page.getByRole("button", { name: "Crear campaña" }).click();
    await expect(toast(page, "success", "Campaña creada.")).toBeVisible();
    const card = page.getByRole("listitem", { name });
    await card.getByRole("button", { name: "Copiar enlace" }).click();
    await expect(toast(page, "success", "Enlace copiado.")).toBeVisible();
    const shareUrl = await page.evaluate(() => navigator.clipboard.readText());
    expect(shareUrl).toBe(await card.getByLabel("Enlace para compartir").inputValue());
    const token = new URL(shareUrl).searchParams.get("ref") ?? "";
    expect(token).toMatch(/^[A-Za-z0-9_-]{4,64}$/);
    await card.getByRole("button", { name: "Código QR" }).click();
    await expect(card.getByRole("img", { name: `Código QR de ${shareUrl}` })).toBeVisible();
    await expect(figure(page, name, "Clics")).toHaveText("0");

    // A stranger follows the link: the click is reported with the spec's body, then they sign up.
    const strangerContext = await browser.newContext({ locale: "en-GB" });
    const stranger = await strangerContext.newPage();
    const strangerErrors = watchConsole(stranger);
    const click = stranger.waitForRequest(
      (r) => r.method() === "PATCH" && r.url() === `${apiUrl}/campaigns/clicks/${token}`,
    );
    await stranger.goto(new URL(shareUrl).pathname + new URL(shareUrl).search);
    expect((await click).postDataJSON()).toEqual({ token });
    expect((await (await click).response())?.status()).toBe(204);

    const email = uniqueEmail("aff-stranger");
    const signup = stranger.waitForResponse((r) => r.url() === `${apiUrl}/auth/signup?ref=${token}`);
    await stranger.goto("/signup");
    await stranger.getByLabel("E-mail").fill(email);
    await stranger.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await stranger.getByLabel(/I accept the terms/).check();
    await stranger.getByRole("button", { name: "Create account" }).click();
    expect((await signup).status()).toBe(201);
    // A first visit may compile the page in development: allow it time.
    await expect(stranger).toHaveURL(/\/verify-email\?email=/, { timeout: 30_000 });

    // The referrer sees the click and the sign-up.
    await reloadUntil(page, async () => {
      await expect(figure(page, name, "Clics")).toHaveText("1", { timeout: 2_000 });
      await expect(figure(page, name, "Registros")).toHaveText("1", { timeout: 2_000 });
    });
    const referrals = page.getByRole("region", { name: "Cuentas recomendadas" });
    await expect(referrals.getByRole("row")).toHaveCount(2);
    // Anonymised: the referred address is never shown whole.
    await expect(referrals).not.toContainText(email);

    // The referred account becomes a creator and sells a €20.00 link: 10% fee, 20% of it is €0.40.
    const creator = await becomeCreator(email);
    const { orderId } = await sellOnce(creator, {
      displayName: "Affiliates E2E",
      handle: `af${stamp}`,
      title: `Affiliate sale ${stamp}`,
      buyer: "aff-buyer",
    });
    await reloadUntil(page, async () => {
      await expect(figure(page, name, "Ventas")).toHaveText("1", { timeout: 2_000 });
    });
    await expect(figure(page, name, "Retenido")).toHaveText("0,40 €");
    const earnings = page.getByRole("region", { name: "Ganancias" });
    await expect(earnings.getByRole("row").nth(1)).toContainText("Retenida");
    await expect(page.getByRole("button", { name: "Nada que reclamar" })).toBeDisabled();

    // The clock moves past the hold, for this order only (tests alongside keep theirs held).
    const list = (await (await referrer.api.get("/campaigns/earnings")).json()) as {
      items: { orderId: string; availableAt: string }[];
    };
    const earning = list.items.find((e) => e.orderId === orderId);
    if (!earning) throw new Error("no commission for the sale");
    const released = await creator.post("/dev/holds/release", {
      data: { asOf: earning.availableAt, orderIds: [orderId] },
    });
    expect(released.status()).toBe(200);

    // The referrer claims: the toast says the amount in Spanish, the wallet has it.
    await page.reload();
    const claim = page.getByRole("button", { name: "Reclamar 0,40 €" });
    await expect(claim).toBeEnabled();
    await claim.click();
    await expect(toast(page, "success", "0,40 € añadido a tu monedero.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Nada que reclamar" })).toBeDisabled();
    await expect(figure(page, name, "Reclamado")).toHaveText("0,40 €");
    await expect(earnings.getByRole("row").nth(1)).toContainText("Reclamada");

    await page.getByRole("navigation", { name: "Cuenta" }).getByRole("link", { name: "Monedero" }).click();
    const eur = page.getByRole("listitem", { name: "Saldos en EUR" });
    await expect(
      eur
        .locator("div")
        .filter({ has: page.getByRole("term").getByText("Disponible", { exact: true }) })
        .getByRole("definition")
        .first(),
    ).toHaveText("0,40 €");

    await creator.dispose();
    await referrer.api.dispose();
    expect(strangerErrors, "stranger's console errors").toEqual([]);
    expect(referrerErrors, "referrer's console errors").toEqual([]);
    await strangerContext.close();
    await referrerContext.close();
  });

  for (const [locale, words] of [
    ["en", { nothing: "Nothing to claim", claim: "Claim €0.40", failed: "Failed to claim." }],
    ["es", { nothing: "Nada que reclamar", claim: "Reclamar 0,40 €", failed: "No se pudo reclamar." }],
  ] as const) {
    test(`nothing to claim: the button says so, and a claim the API refuses shows 'Failed to claim.' (${locale})`, async ({
      browser,
      consoleErrors: _,
    }) => {
      test.setTimeout(90_000);
      const account = await freshAccount(`aff-noclaim-${locale}`, "individual", locale);
      const context = await browser.newContext({ locale });
      const page = await context.newPage();
      const errors = watchConsole(page);
      await signIn(page, account.email, locale === "es" ? esSignIn : undefined);
      await page.goto("/account/affiliates");
      const none = page.getByRole("button", { name: words.nothing });
      await expect(none).toBeDisabled();
      await expect(none).toHaveAccessibleDescription(/./);

      // The page still shows an amount another tab has claimed since: the API refuses, the page says so.
      let stale = true;
      await page.route(`${apiUrl}/campaigns`, async (route) => {
        if (route.request().method() !== "GET" || !stale) return route.fallback();
        stale = false;
        const response = await route.fetch();
        const body = (await response.json()) as { claimable: unknown[] };
        body.claimable = [{ currency: "EUR", amount: 40 }];
        await route.fulfill({ response, json: body });
      });
      await page.reload();
      const claim = page.getByRole("button", { name: words.claim });
      await expect(claim).toBeEnabled();
      const answer = page.waitForResponse((r) => r.url() === `${apiUrl}/campaigns/claim`);
      await claim.click();
      expect((await answer).ok()).toBe(false);
      await expect(toast(page, "error", words.failed)).toBeVisible();
      // Read again after the failure: nothing to claim, the button disabled with its reason.
      await expect(page.getByRole("button", { name: words.nothing })).toBeDisabled();
      expect(errors).toEqual([]);
      await account.api.dispose();
      await context.close();
    });
  }

  test("an unknown or malformed ?ref shows the visitor nothing", async ({ page, consoleErrors: _ }) => {
    const unknown = `unknown-${Date.now().toString(36)}`;
    const click = page.waitForRequest(
      (r) => r.method() === "PATCH" && r.url().includes("/campaigns/clicks/"),
    );
    await page.goto(`/?ref=${unknown}`);
    const sent = await click;
    expect(sent.url()).toBe(`${apiUrl}/campaigns/clicks/${unknown}`);
    expect(sent.postDataJSON()).toEqual({ token: unknown });
    expect((await sent.response())?.status()).toBe(204);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
    // (Next's route announcer is an alert too: only the click's own failure text is looked for.)
    await expect(page.getByText("Failed to update click.")).toHaveCount(0);

    // A token of the wrong shape is neither kept nor reported.
    const reports: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/campaigns/clicks/")) reports.push(r.url());
    });
    await page.goto("/?ref=a%2Fb");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(reports).toEqual([]);
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem("affiliate-ref") ?? "{}").token)).toBe(
      unknown,
    );
  });

  test("a failed load shows 'Failed to fetch campaign.' with a retry; a failed test click says so", async ({
    page,
    consoleErrors: _,
  }) => {
    test.setTimeout(90_000);
    const account = await freshAccount("aff-failures", "individual");
    const created = await account.api.post("/campaigns", { data: { name: "Newsletter" } });
    expect(created.status()).toBe(201);
    await signIn(page, account.email);

    await page.route(`${apiUrl}/campaigns`, (route) =>
      route.request().method() === "GET" ? route.fulfill({ status: 500, json: {} }) : route.fallback(),
    );
    await page.goto("/account/affiliates");
    const alert = page.getByRole("alert").filter({ hasText: "Failed to fetch campaign." });
    await expect(alert).toBeVisible();
    await page.unroute(`${apiUrl}/campaigns`);
    await alert.getByRole("button", { name: "Try again" }).click();
    const card = page.getByRole("listitem", { name: "Newsletter" });
    await expect(card).toBeVisible();

    // The person asked for a test click: a failure to record it is shown to them.
    await page.route(`${apiUrl}/campaigns/clicks/**`, (route) => route.fulfill({ status: 503, json: {} }));
    await card.getByRole("button", { name: "Test my link" }).click();
    await expect(toast(page, "error", "Failed to update click.")).toBeVisible();
    await page.unroute(`${apiUrl}/campaigns/clicks/**`);
    await card.getByRole("button", { name: "Test my link" }).click();
    await expect(toast(page, "success", "Your link works: the visit was recorded.")).toBeVisible();
    await account.api.dispose();
  });
  test("one address rotating user agents counts three clicks; the rest shows as filtered", async ({
    page,
    consoleErrors: _,
  }) => {
    test.setTimeout(90_000);
    const account = await freshAccount("aff-filtered", "individual");
    const created = await account.api.post("/campaigns", { data: { name: "Rotated" } });
    expect(created.status()).toBe(201);
    const { token } = (await created.json()) as { token: string };
    // The attack: one machine, six user agents (and no cookies), one campaign, one hour.
    const visitor = await request.newContext({ baseURL: apiUrl, extraHTTPHeaders: { origin: webUrl } });
    for (let i = 0; i < 6; i += 1) {
      const res = await visitor.patch(`/campaigns/clicks/${token}`, {
        data: { token },
        headers: { "user-agent": `Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0.${i} Safari/537.36` },
      });
      expect(res.status()).toBe(204);
    }
    await visitor.dispose();

    await signIn(page, account.email);
    await page.goto("/account/affiliates");
    await reloadUntil(page, async () => {
      await expect(figure(page, "Rotated", "Filtered (same address)")).toHaveText("3", { timeout: 1_000 });
    });
    await expect(figure(page, "Rotated", "Clicks")).toHaveText("3");
    await expect(page.getByText(/past 3 different browsers from one address in an hour/)).toBeVisible();
    await account.api.dispose();
  });

  test("a second account of the referrer earns nothing and shows in the admin console", async ({
    page,
    consoleErrors: _,
  }) => {
    test.setTimeout(90_000);
    const referrer = await freshAccount("aff-self", "individual");
    const created = await referrer.api.post("/campaigns", { data: { name: "Self" } });
    const { token } = (await created.json()) as { token: string };
    // The attack: the referrer signs a second account up through its own link, from the same client.
    const email = uniqueEmail("aff-self-second");
    const second = await request.newContext({
      baseURL: apiUrl,
      extraHTTPHeaders: { origin: webUrl },
      userAgent: referrer.userAgent,
    });
    const signup = await second.post(`/auth/signup?ref=${token}`, {
      data: { email, password: PASSWORD, acceptTerms: true, locale: "en", turnstileToken: "e2e" },
    });
    expect(signup.status()).toBe(201);
    await second.dispose();

    await signInAs(page, "admin");
    await page.goto("/admin");
    await page
      .getByRole("navigation", { name: "Admin" })
      .getByRole("link", { name: "Self-referrals" })
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Self-referrals");
    const row = page.getByRole("listitem", { name: `Referral of ${email}` });
    await expect(row).toBeVisible({ timeout: 30_000 });
    await expect(row).toContainText(referrer.email);
    await expect(row).toContainText("The same sign-up device and address");
    await referrer.api.dispose();
  });
});
