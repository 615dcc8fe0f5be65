/*
 * Whether a VAT number exists, asked of the European Commission's VIES (issue 22). VIES relays each
 * question to the member state's own register, one of which is often down: "unavailable" is an
 * answer of its own, never "invalid", and the caller decides what a sale does without one.
 */

export interface VatNumberCheck {
  /** The member state's register knows the number as active. */
  valid: boolean;
  /** The trader's name and address, when the member state discloses them. */
  name?: string;
  address?: string;
  /** When we asked (our clock). */
  checkedAt: Date;
  /**
   * VIES's consultation number (requestIdentifier): proof of the check for a tax audit. VIES gives
   * one only when the request names the requester's own VAT number.
   */
  requestId?: string;
}

/**
 * No answer about the number: VIES or the member state's register down or busy, a timeout, an
 * answer we cannot read. `code` is VIES's (MS_UNAVAILABLE, SERVICE_UNAVAILABLE, TIMEOUT,
 * GLOBAL_MAX_CONCURRENT_REQ, MS_MAX_CONCURRENT_REQ, …) or ours (HTTP_<status>, NETWORK,
 * MALFORMED_RESPONSE); the message is safe to log.
 */
export class ViesUnavailableError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "ViesUnavailableError";
  }
}

export interface ViesProvider {
  /** "sandbox" lets the production guard refuse it and a screen label its answers. */
  readonly kind: "sandbox" | "vies";
  /**
   * Asks whether `number` exists. `country` is the ISO code (GR for Greece, sent to VIES as EL);
   * `number` may carry its prefix or not. Throws ViesUnavailableError when there is no answer.
   */
  checkVatNumber(country: string, number: string): Promise<VatNumberCheck>;
}
