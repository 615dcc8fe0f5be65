import { checkVatNumberFormat, isEuVatNumberCountry } from "../../modules/tax/vat-number.ts";
import { type VatNumberCheck, type ViesProvider, ViesUnavailableError } from "./types.ts";

/** A well-formed number ending in these digits is unknown to the sandbox (e.g. DE111110000, FR11111370000). */
export const SANDBOX_INVALID_SUFFIX = "0000";
/** A number ending in these digits finds its member state "down", as VIES often does (e.g. DE111139999). */
export const SANDBOX_UNAVAILABLE_SUFFIX = "9999";

/**
 * No network, deterministic, labelled as such: a number whose format and check digits are right
 * (jsvat) is valid, unless it ends in SANDBOX_INVALID_SUFFIX (invalid) or SANDBOX_UNAVAILABLE_SUFFIX
 * (throws MS_UNAVAILABLE). A valid one gets a name and address saying they come from the sandbox.
 */
export class SandboxViesProvider implements ViesProvider {
  readonly kind = "sandbox";

  async checkVatNumber(country: string, number: string): Promise<VatNumberCheck> {
    if (!isEuVatNumberCountry(country))
      throw new RangeError(`VIES checks EU VAT numbers only, not ${country}'s`);
    const checkedAt = new Date();
    const format = checkVatNumberFormat(number, country);
    if (format.number.endsWith(SANDBOX_UNAVAILABLE_SUFFIX))
      throw new ViesUnavailableError("the sandbox's member state is down (MS_UNAVAILABLE)", "MS_UNAVAILABLE");
    const valid =
      format.formatValid && format.country === country && !format.number.endsWith(SANDBOX_INVALID_SUFFIX);
    if (!valid) return { valid: false, checkedAt };
    return {
      valid: true,
      name: `Sandbox business ${format.normalised}`,
      address: "Sandbox VIES: no register was asked",
      checkedAt,
      requestId: `sandbox-${format.normalised}`,
    };
  }
}
