/**
 * Where a verification link that needs a chosen password waits (session storage, this tab only)
 * between the page that followed it and the verify-email page that asks for the password.
 */
export const PENDING_VERIFICATION_KEY = "salelink.pending-verification";
