/*
 * Constants the browser's shell (loaded on every page) needs, kept free of zod so that the first
 * load stays small; the schemas that use them import them from here.
 */

/** Spec section 9: the maintenance status is re-checked at most every 60000 ms. */
export const maintenanceRecheckMs = 60_000;

/** Partner programmes' `?via=` codes (issue 20): their length, and the characters they use. */
export const PARTNER_CODE_LENGTH = 8;
export const partnerCodePattern = new RegExp(`^[A-Za-z0-9_-]{${PARTNER_CODE_LENGTH}}$`);
/** The codes a checkout may carry: the visitor's most recent, newest first. */
export const PARTNER_VIA_MAX = 10;
/** The longest attribution window a programme may set, in days (the browser keeps codes that long). */
export const PARTNER_WINDOW_MAX_DAYS = 365;
