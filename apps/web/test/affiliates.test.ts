import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { formatAmounts, hasMoney, sumAmounts } from "../features/affiliates/money-list.ts";
import { reportClick, reportVisit } from "../features/affiliates/report-click.ts";
import { isReferralToken } from "../lib/referral.ts";

const API = "http://api.test";
type Call = { url: string; init: RequestInit | undefined };

/** A fetch answering /env.json with the API address and the click report with `status`. */
function fakeFetch(status: () => number | Error) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    if (url === "/env.json") return new Response(JSON.stringify({ apiUrl: API }), { status: 200 });
    calls.push({ url, init });
    const answer = status();
    if (answer instanceof Error) throw answer;
    return new Response(null, { status: answer });
  });
  return { fetch, calls };
}

describe("the affiliate click report", () => {
  beforeEach(() => vi.unstubAllGlobals());
  afterEach(() => vi.unstubAllGlobals());

  it("sends PATCH /campaigns/clicks/{token} with the spec's body and says whether it was recorded", async () => {
    let answer: number | Error = 204;
    const { fetch, calls } = fakeFetch(() => answer);
    vi.stubGlobal("fetch", fetch);

    expect(await reportClick("summer-2026")).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe(`${API}/campaigns/clicks/summer-2026`);
    expect(calls[0]?.init?.method).toBe("PATCH");
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({ token: "summer-2026" });

    answer = 503;
    expect(await reportClick("summer-2026")).toBe(false);
    answer = new TypeError("network down");
    expect(await reportClick("summer-2026")).toBe(false);
  });

  it("reports a visit once per token per page load, never throwing", async () => {
    const { fetch, calls } = fakeFetch(() => new TypeError("offline"));
    vi.stubGlobal("fetch", fetch);
    reportVisit("token-once");
    reportVisit("token-once");
    reportVisit("token-other");
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(calls.map((c) => c.url)).toEqual([
      `${API}/campaigns/clicks/token-once`,
      `${API}/campaigns/clicks/token-other`,
    ]);
  });

  it("only reports tokens of the contract's shape", () => {
    expect(isReferralToken("abcd")).toBe(true);
    expect(isReferralToken("a_b-C9".repeat(10))).toBe(true);
    expect(isReferralToken("abc")).toBe(false);
    expect(isReferralToken("x".repeat(65))).toBe(false);
    expect(isReferralToken("a/b/../c")).toBe(false);
  });
});

describe("amounts per currency", () => {
  it("adds campaigns up per currency and formats them in the page's language", () => {
    const total = sumAmounts([
      [{ currency: "EUR", amount: 40 }],
      [
        { currency: "EUR", amount: 125 },
        { currency: "USD", amount: 300 },
      ],
    ]);
    expect(total).toEqual([
      { currency: "EUR", amount: 165 },
      { currency: "USD", amount: 300 },
    ]);
    expect(formatAmounts(total, "en", "EUR")).toBe("€1.65, $3.00");
    expect(formatAmounts([{ currency: "EUR", amount: 40 }], "es", "EUR")).toBe("0,40\u00a0€");
    expect(formatAmounts([], "fr", "EUR")).toBe("0,00\u00a0€");
    expect(hasMoney([{ currency: "EUR", amount: 0 }])).toBe(false);
    expect(hasMoney(total)).toBe(true);
  });
});
