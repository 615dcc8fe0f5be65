import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { text } from "node:stream/consumers";
import { identitySessionRequestSchema } from "@salelink/contracts";

export const FAKE_VERIFF_KEY = "fake-veriff-api-key";
export const FAKE_VERIFF_SECRET = "fake-veriff-shared-secret";

interface SeenRequest {
  method: string;
  path: string;
  authClient: string | undefined;
  signature: string | undefined;
  body: unknown;
}

const hmac = (body: string, secret: string) => createHmac("sha256", secret).update(body).digest("hex");

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === "string" ? value : undefined;
};

/**
 * Just enough of Veriff's API on a free local port: POST /v1/sessions with the X-AUTH-CLIENT key
 * (and, when sent, an X-HMAC-SIGNATURE of the body), the spec's session body checked against the
 * contract, 201 with the session; and decision/event webhooks signed as Veriff signs them.
 */
export async function startFakeVeriff(options: { apiKey?: string; secret?: string } = {}) {
  const apiKey = options.apiKey ?? FAKE_VERIFF_KEY;
  const secret = options.secret ?? FAKE_VERIFF_SECRET;
  const requests: SeenRequest[] = [];
  const sessions = new Map<string, { vendorData: string | null; callback: string }>();
  /** Answers served to the next session requests, before anything else (an outage, a refusal). */
  const failures: { status: number; body: unknown }[] = [];
  /** Milliseconds the next session request waits before answering (a slow provider). */
  let delayNextMs = 0;

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    const raw = JSON.stringify(body);
    res.writeHead(status, {
      "content-type": "application/json",
      "x-auth-client": apiKey,
      "x-hmac-signature": hmac(raw, secret),
    });
    res.end(raw);
  };
  const fail = (res: ServerResponse, status: number, code: string, message: string) =>
    answer(res, status, { status: "fail", code, message });

  let base = "";
  const server = createServer(async (req, res) => {
    const raw = await text(req);
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    const authClient = header(req, "x-auth-client");
    const signature = header(req, "x-hmac-signature");
    requests.push({ method: req.method ?? "", path, authClient, signature, body });

    if (req.method !== "POST" || path !== "/v1/sessions") return fail(res, 404, "1404", "Not found");
    if (delayNextMs > 0) {
      const wait = delayNextMs;
      delayNextMs = 0;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const failure = failures.shift();
    if (failure) return answer(res, failure.status, failure.body);
    if (!authClient || !sameText(authClient, apiKey))
      return fail(res, 401, "1801", "Mandatory X-AUTH-CLIENT header containing the API key is invalid.");
    if (signature !== undefined && !sameText(signature.toLowerCase(), hmac(raw, secret)))
      return fail(
        res,
        401,
        "1812",
        "Signature does not match the SHA256 hash of query ID and shared secret.",
      );
    const parsed = identitySessionRequestSchema.strict().safeParse(body);
    if (!parsed.success) return fail(res, 400, "1102", `Invalid session body: ${parsed.error.message}`);
    const id = randomUUID();
    const { callback, vendorData } = parsed.data.verification;
    sessions.set(id, { vendorData: vendorData ?? null, callback });
    return answer(res, 201, {
      status: "success",
      verification: {
        id,
        url: `${base}/v/${id}`,
        vendorData: vendorData ?? null,
        host: base,
        status: "created",
        sessionToken: `token-${id}`,
      },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** POSTs a webhook to `url`, signed as Veriff does (or with another key/secret, to test refusals). */
  async function sendWebhook(
    url: string,
    payload: unknown,
    signing: { apiKey?: string; secret?: string } = {},
  ) {
    const raw = JSON.stringify(payload);
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-auth-client": signing.apiKey ?? apiKey,
        "x-hmac-signature": hmac(raw, signing.secret ?? secret),
      },
      body: raw,
    });
    return { status: res.status, body: (await res.json()) as unknown };
  }

  return {
    url: base,
    apiKey,
    secret,
    requests,
    sessions,
    failNext(status: number, body: unknown) {
      failures.push({ status, body });
    },
    delayNext(ms: number) {
      delayNextMs = ms;
    },
    sendWebhook,
    /** A decision webhook for `sessionId`, as Veriff sends it (the person's data included). */
    decision(
      sessionId: string,
      status: "approved" | "declined" | "resubmission_requested" | "expired" | "abandoned" | "review",
      extra: { reason?: string | null; reasonCode?: number | null; attemptId?: string } = {},
    ) {
      return {
        status: "success",
        verification: {
          id: sessionId,
          attemptId: extra.attemptId ?? randomUUID(),
          code: {
            approved: 9001,
            declined: 9102,
            resubmission_requested: 9103,
            expired: 9104,
            abandoned: 9104,
            review: 9121,
          }[status],
          person: { firstName: "Ada", lastName: "Lovelace", idNumber: null },
          reason: extra.reason ?? null,
          reasonCode: extra.reasonCode ?? null,
          status,
          document: { number: "X1234567", type: "PASSPORT", country: "FR" },
          vendorData: sessions.get(sessionId)?.vendorData ?? null,
          decisionTime: new Date().toISOString(),
          acceptanceTime: new Date().toISOString(),
        },
        technicalData: { ip: "203.0.113.7" },
      };
    },
    /** An event webhook (the person's progress). */
    event(sessionId: string, action: "started" | "submitted", attemptId: string = randomUUID()) {
      return {
        id: sessionId,
        attemptId,
        feature: "selfid",
        code: action === "started" ? 7001 : 7002,
        action,
        vendorData: sessions.get(sessionId)?.vendorData ?? null,
      };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export type FakeVeriff = Awaited<ReturnType<typeof startFakeVeriff>>;
