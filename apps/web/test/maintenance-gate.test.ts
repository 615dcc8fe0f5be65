import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type MaintenanceGate, maintenanceGate, RETRY_AFTER_SECONDS } from "../server/maintenance-gate.ts";

const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const browser = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36";

/** The API as the gate sees it: the switch, and the role of two sessions; every call is counted. */
function fakeApi() {
  const api = { maintenance: false, down: false, calls: { maintenance: 0, profile: 0 } };
  const server = createServer((req, res) => {
    if (api.down) {
      res.destroy();
      return;
    }
    res.setHeader("Content-Type", "application/json");
    if (req.url === "/maintenance") {
      api.calls.maintenance++;
      res.end(
        JSON.stringify({ maintenance: api.maintenance, cooldown: 1000, lastUpdated: null, message: null }),
      );
      return;
    }
    if (req.url === "/profile") {
      api.calls.profile++;
      const role = { "sid=admin-session": "admin", "sid=user-session": "user" }[req.headers.cookie ?? ""];
      res.statusCode = role ? 200 : 401;
      res.end(JSON.stringify(role ? { role } : { error: "UnauthorizedException" }));
      return;
    }
    res.statusCode = 404;
    res.end("{}");
  });
  return { api, server };
}

const servers: Server[] = [];
const gates: MaintenanceGate[] = [];
afterEach(() => {
  for (const gate of gates.splice(0)) gate.stop();
  for (const server of servers.splice(0)) server.close();
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The web server: the gate in front of a handler standing for Next.js, which names the page it serves. */
async function start(apiUrl: string, pollMs = 60_000) {
  const gate = maintenanceGate({ apiUrl, pollMs, timeoutMs: 500 });
  gates.push(gate);
  await gate.start();
  const web = await listen(
    createServer((req, res) => gate.handle(req, res, () => res.end(`page ${req.method} ${req.url}`))),
  );
  const get = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(`${web}${path}`, {
      redirect: "manual",
      ...init,
      headers: { "user-agent": browser, ...init.headers },
    });
  return { gate, get };
}

describe("maintenance gate", () => {
  it("while off, passes every page without asking the API per request, and sends /maintenance to /", async () => {
    const { api, server } = fakeApi();
    const { get } = await start(await listen(server));
    const before = { ...api.calls };
    for (const path of ["/", "/blog", "/v/abc", "/account"]) {
      const res = await get(path, { headers: { cookie: "sid=user-session" } });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(`page GET ${path}`);
    }
    expect(api.calls).toEqual(before);

    for (const path of ["/maintenance", "/maintenance?x=1"]) {
      const res = await get(path);
      expect(res.status).toBe(307);
      expect(res.headers.get("location")).toBe("/");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    expect(
      (await get("/maintenance", { headers: { "user-agent": googlebot } })).headers.get("location"),
    ).toBe("/");
  });

  it("while on, sends visitors to /maintenance with no page content, and tells crawlers 503 with Retry-After", async () => {
    const { api, server } = fakeApi();
    api.maintenance = true;
    const { gate, get } = await start(await listen(server));
    expect(gate.on).toBe(true);

    for (const path of ["/", "/blog", "/v/abc?promo=X", "/account", "/admin/maintenance", "/signup"]) {
      const res = await get(path);
      expect(res.status, path).toBe(307);
      expect(res.headers.get("location")).toBe("/maintenance");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.text()).toBe("");
    }
    // Next.js's client navigations (RSC requests) are pages too.
    expect((await get("/blog?_rsc=abc", { headers: { rsc: "1" } })).status).toBe(307);
    expect((await get("/", { method: "HEAD" })).status).toBe(307);

    const bot = await get("/blog", { headers: { "user-agent": googlebot } });
    expect(bot.status).toBe(503);
    expect(bot.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS));
    expect(bot.headers.get("cache-control")).toBe("no-store");
    expect(await bot.text()).not.toContain("page");
    expect((await get("/", { headers: { "user-agent": "curl/8.5.0" } })).status).toBe(503);
  });

  it("while on, keeps sign-in, payments, orders, the maintenance page, assets and route handlers open", async () => {
    const { api, server } = fakeApi();
    api.maintenance = true;
    const { get } = await start(await listen(server));
    const open = [
      "/maintenance",
      "/signin",
      "/signin?next=%2Fadmin%2Fmaintenance",
      "/checkout/01HZX3K9Q7V2M4N6P8R0S2T4V6",
      "/app/payment/01HZX3K9Q7V2M4N6P8R0S2T4V6",
      "/payment/success?order=1",
      "/payment/error",
      "/app/payment/success",
      "/app/payment/error",
      "/order/some-order-token",
      "/app/links/order/some-order-token",
      "/_next/static/chunks/main.js",
      "/env.json",
      "/icon.svg",
      "/favicon.ico",
      "/robots.txt",
      "/sitemap.xml",
    ];
    for (const path of open) {
      for (const agent of [browser, googlebot]) {
        const res = await get(path, { headers: { "user-agent": agent } });
        expect(res.status, `${path} as ${agent}`).toBe(200);
        expect(await res.text()).toBe(`page GET ${path}`);
      }
    }
    // Route handlers (the API's revalidation call) are not pages.
    expect((await get("/api/revalidate", { method: "POST" })).status).toBe(200);
    // Only exactly these pages: what lies under or beside them is not open.
    for (const path of ["/signin/extra", "/order", "/checkout", "/payment/other", "/identity/sandbox/x"]) {
      expect((await get(path)).status, path).toBe(307);
    }
    expect(api.calls.profile).toBe(0);
  });

  it("while on, lets admins through, asking the API once per session and interval", async () => {
    const { api, server } = fakeApi();
    api.maintenance = true;
    const { get } = await start(await listen(server));

    const admin = { cookie: "theme=dark; sid=admin-session; NEXT_LOCALE=fr" };
    const answers = await Promise.all(["/", "/blog", "/admin"].map((path) => get(path, { headers: admin })));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(await (await get("/account", { headers: admin })).text()).toBe("page GET /account");
    // A crawler's user agent with an admin's session (curl, for one) is the admin.
    expect((await get("/", { headers: { ...admin, "user-agent": "curl/8.5.0" } })).status).toBe(200);
    expect(api.calls.profile).toBe(1);

    const user = await get("/blog", { headers: { cookie: "sid=user-session" } });
    expect(user.status).toBe(307);
    expect(user.headers.get("location")).toBe("/maintenance");
    const unknown = await get("/blog", { headers: { cookie: "sid=expired" } });
    expect(unknown.headers.get("location")).toBe("/maintenance");
    // A cookie that is no session token is not forwarded to the API.
    const odd = await get("/blog", { headers: { cookie: "sid=a\tb" } });
    expect(odd.headers.get("location")).toBe("/maintenance");
    expect(api.calls.profile).toBe(3);
  });

  it("sees a switch within one poll interval, and counts an unreachable API as off", async () => {
    const { api, server } = fakeApi();
    const { gate, get } = await start(await listen(server), 100);
    expect((await get("/blog")).status).toBe(200);

    api.maintenance = true;
    await expect.poll(async () => (await get("/blog")).status, { timeout: 2_000 }).toBe(307);
    expect(gate.on).toBe(true);

    api.down = true;
    await expect.poll(async () => (await get("/blog")).status, { timeout: 2_000 }).toBe(200);
    expect(gate.on).toBe(false);
    expect((await get("/maintenance")).headers.get("location")).toBe("/");
  });

  it("starts as off when the API cannot be reached at all", async () => {
    const closed = createServer();
    const url = await listen(closed);
    closed.close();
    const { gate, get } = await start(url);
    expect(gate.on).toBe(false);
    expect((await get("/")).status).toBe(200);
  });
});
