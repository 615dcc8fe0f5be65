import { randomUUID } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { text } from "node:stream/consumers";

/** VIES's member-state codes: the ISO codes but EL for Greece (and XI, Northern Ireland). */
const VIES_COUNTRIES = new Set(
  "AT BE BG CY CZ DE DK EE EL ES FI FR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK XI".split(" "),
);

interface SeenRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  body: unknown;
}

export interface FakeTrader {
  name: string;
  address: string;
}

/**
 * Just enough of the European Commission's VIES REST API on a free local port: POST
 * /check-vat-number with `{ countryCode, vatNumber, requesterMemberStateCode?, requesterNumber? }`,
 * answered as VIES does: `{ countryCode, vatNumber, requestDate, valid, requestIdentifier, name,
 * address, … }` ("---" where a state discloses nothing, a consultation number only when the
 * requester is given), and its refusals `{ actionSucceed: false, errorWrappers: [{ error, message }] }`
 * (INVALID_INPUT for a bad request, MS_UNAVAILABLE for a member state marked down).
 */
export async function startFakeVies() {
  const requests: SeenRequest[] = [];
  /** "DE136695976" → the trader VIES knows; any other number is answered invalid. */
  const registered = new Map<string, FakeTrader | null>();
  /** Member states (VIES codes) whose register is "down". */
  const down = new Set<string>();
  const failures: { status: number; body: unknown; raw?: boolean }[] = [];
  let delayNextMs = 0;

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: ServerResponse, status: number, error: string, message: string) =>
    answer(res, status, { actionSucceed: false, errorWrappers: [{ error, message }] });

  const server = createServer(async (req, res) => {
    const raw = await text(req);
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    const contentType = req.headers["content-type"];
    requests.push({ method: req.method ?? "", path, contentType, body });
    if (delayNextMs > 0) {
      const wait = delayNextMs;
      delayNextMs = 0;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    if (req.method !== "POST" || path !== "/check-vat-number")
      return answer(res, 404, { error: "Not found" });
    const failure = failures.shift();
    if (failure) {
      if (failure.raw) {
        res.writeHead(failure.status, { "content-type": "text/html" });
        return res.end(String(failure.body));
      }
      return answer(res, failure.status, failure.body);
    }
    const request = body as Record<string, unknown> | null;
    const countryCode = typeof request?.countryCode === "string" ? request.countryCode : "";
    const vatNumber = typeof request?.vatNumber === "string" ? request.vatNumber : "";
    if (!VIES_COUNTRIES.has(countryCode) || !/^[0-9A-Z+*.]{2,12}$/.test(vatNumber))
      return refuse(
        res,
        400,
        "INVALID_INPUT",
        "The provided CountryCode is invalid or the VAT number is empty",
      );
    if (down.has(countryCode))
      return refuse(res, 500, "MS_UNAVAILABLE", "The Member State service is unavailable, try again later");
    const trader = registered.get(`${countryCode}${vatNumber}`);
    const valid = trader !== undefined;
    const withRequester = typeof request?.requesterNumber === "string" && request.requesterNumber !== "";
    return answer(res, 200, {
      countryCode,
      vatNumber,
      requestDate: new Date().toISOString(),
      valid,
      requestIdentifier: withRequester ? `WAPI${randomUUID().slice(0, 12).toUpperCase()}` : "",
      name: valid && trader ? trader.name : "---",
      address: valid && trader ? trader.address : "---",
      traderName: "",
      traderStreet: "",
      traderPostalCode: "",
      traderCity: "",
      traderCompanyType: "---",
      traderNameMatch: "NOT_PROCESSED",
      traderStreetMatch: "NOT_PROCESSED",
      traderPostalCodeMatch: "NOT_PROCESSED",
      traderCityMatch: "NOT_PROCESSED",
      traderCompanyTypeMatch: "NOT_PROCESSED",
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    /** Makes `vatNumber` (with its VIES prefix, e.g. "EL094259216") known; null: no name or address disclosed. */
    register(vatNumber: string, trader: FakeTrader | null = null) {
      registered.set(vatNumber, trader);
    },
    /** Marks a member state's register (VIES code) down or up again. */
    setDown(countryCode: string, isDown = true) {
      if (isDown) down.add(countryCode);
      else down.delete(countryCode);
    },
    /** The next request gets this answer (JSON, or `raw` text such as a proxy's error page). */
    failNext(status: number, body: unknown, raw = false) {
      failures.push({ status, body, raw });
    },
    delayNext(ms: number) {
      delayNextMs = ms;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export type FakeVies = Awaited<ReturnType<typeof startFakeVies>>;
