/*
 * Constants the browser's shell (loaded on every page) needs, kept free of zod so that the first
 * load stays small; the schemas that use them import them from here.
 */

/** Spec section 9: the maintenance status is re-checked at most every 60000 ms. */
export const maintenanceRecheckMs = 60_000;
