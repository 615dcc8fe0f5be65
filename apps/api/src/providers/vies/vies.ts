import { z } from "zod";
import { checkVatNumberFormat, isEuVatNumberCountry, vatPrefixOf } from "../../modules/tax/vat-number.ts";
import { type VatNumberCheck, type ViesProvider, ViesUnavailableError } from "./types.ts";

export const VIES_API_URL = "https://ec.europa.eu/taxation_customs/vies/rest-api";
const DEFAULT_TIMEOUT_MS = 8000;

/** The fields we read of POST /check-vat-number's answer (it also sends trader details we ignore). */
const checkAnswer = z.object({
  valid: z.boolean(),
  name: z.string().nullish(),
  address: z.string().nullish(),
  requestIdentifier: z.string().nullish(),
  /** The GET endpoint's way of saying a member state is down; accepted here too. */
  userError: z.string().nullish(),
});

/** VIES's refusals: `{ actionSucceed: false, errorWrappers: [{ error: "MS_UNAVAILABLE", message }] }`. */
const errorAnswer = z.object({
  errorWrappers: z.array(z.object({ error: z.string(), message: z.string().nullish() })).min(1),
});

/** The answer to a malformed number: the number is not a valid one (the format was checked before). */
const INVALID_INPUT = "INVALID_INPUT";

/** VIES writes "---" where a member state does not disclose the trader's name or address. */
const disclosed = (value: string | null | undefined) => {
  const text = value?.trim();
  return text && text !== "---" ? text : undefined;
};

export interface ViesRestOptions {
  apiUrl?: string;
  /** Bounds the whole exchange, body included. */
  timeoutMs?: number;
  /**
   * The platform's own VAT number (e.g. "FR40303265045"): sent as the requester, VIES then answers
   * a consultation number, the proof of the check.
   */
  requesterVatNumber?: string;
  fetch?: typeof globalThis.fetch;
}

/** The European Commission's VIES REST API, one attempt per check (the caller decides on retries). */
export class ViesRestProvider implements ViesProvider {
  readonly kind = "vies";
  readonly #url: string;
  readonly #timeoutMs: number;
  readonly #requester: { requesterMemberStateCode: string; requesterNumber: string } | undefined;
  readonly #fetch: typeof globalThis.fetch;

  constructor(options: ViesRestOptions = {}) {
    this.#url = `${(options.apiUrl ?? VIES_API_URL).replace(/\/+$/, "")}/check-vat-number`;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#fetch = options.fetch ?? globalThis.fetch;
    if (options.requesterVatNumber) {
      const own = checkVatNumberFormat(options.requesterVatNumber);
      if (!own.formatValid || !isEuVatNumberCountry(own.country))
        throw new Error("the requester VAT number must be a well-formed EU VAT number");
      this.#requester = { requesterMemberStateCode: own.normalised.slice(0, 2), requesterNumber: own.number };
    }
  }

  async checkVatNumber(country: string, number: string): Promise<VatNumberCheck> {
    if (!isEuVatNumberCountry(country))
      throw new RangeError(`VIES checks EU VAT numbers only, not ${country}'s`);
    const countryCode = vatPrefixOf(country);
    let vatNumber = number.toUpperCase().replace(/[^A-Z0-9]/g, "");
    for (const prefix of [countryCode, country]) {
      if (vatNumber.startsWith(prefix)) {
        vatNumber = vatNumber.slice(prefix.length);
        break;
      }
    }
    const checkedAt = new Date();
    let status: number;
    let body: unknown;
    try {
      const res = await this.#fetch(this.#url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ countryCode, vatNumber, ...this.#requester }),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      status = res.status;
      const text = await res.text();
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    } catch (error) {
      const timedOut =
        error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw new ViesUnavailableError(
        timedOut ? `VIES did not answer within ${this.#timeoutMs} ms` : "VIES could not be reached",
        timedOut ? "TIMEOUT" : "NETWORK",
      );
    }

    const refusal = errorAnswer.safeParse(body);
    if (refusal.success) {
      const [first] = refusal.data.errorWrappers;
      const code = first?.error ?? "UNKNOWN";
      if (code === INVALID_INPUT) return { valid: false, checkedAt };
      throw new ViesUnavailableError(`VIES answered ${code} (HTTP ${status})`, code);
    }
    if (status < 200 || status > 299)
      throw new ViesUnavailableError(`VIES answered HTTP ${status}`, `HTTP_${status}`);
    const parsed = checkAnswer.safeParse(body);
    if (!parsed.success)
      throw new ViesUnavailableError("VIES's answer could not be read", "MALFORMED_RESPONSE");
    const { valid, userError } = parsed.data;
    if (userError && userError !== "VALID" && userError !== "INVALID") {
      if (userError === INVALID_INPUT) return { valid: false, checkedAt };
      throw new ViesUnavailableError(`VIES answered ${userError}`, userError);
    }
    const name = disclosed(parsed.data.name);
    const address = disclosed(parsed.data.address);
    const requestId = disclosed(parsed.data.requestIdentifier);
    return {
      valid,
      checkedAt,
      ...(valid && name ? { name } : {}),
      ...(valid && address ? { address } : {}),
      ...(requestId ? { requestId } : {}),
    };
  }
}
