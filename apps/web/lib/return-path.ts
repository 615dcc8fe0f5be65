import { sameOriginPath } from "@salelink/contracts/return-path";

/** Where an account page sends someone once they are in, when no (acceptable) `next` is given. */
export const DEFAULT_AFTER_SIGN_IN = "/account";

/**
 * The page to go to after sign-in, sign-up, the 2FA step or any flow that carries a `next` or return
 * path: only when it stays on this site (issue 16, item 5), else `fallback`. `origin` is the page's
 * own (`window.location.origin`), given explicitly so the rule is tested without a browser.
 */
export function safeReturnPath(
  raw: string | null | undefined,
  origin: string,
  fallback: string = DEFAULT_AFTER_SIGN_IN,
): string {
  return sameOriginPath(raw, origin) ?? fallback;
}

/** The `next` of the current address, checked. */
export function nextFromLocation(fallback: string = DEFAULT_AFTER_SIGN_IN): string {
  return safeReturnPath(
    new URLSearchParams(window.location.search).get("next"),
    window.location.origin,
    fallback,
  );
}
