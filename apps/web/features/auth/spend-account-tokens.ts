import { ApiError, api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";
import type { AuthState } from "./auth-provider.tsx";
import { PENDING_VERIFICATION_KEY } from "./pending-verification.ts";

type TokenMessage = "emailVerified" | "accountDeleted" | "error";

const loadMessageSchema = () => import("@salelink/contracts/auth").then((m) => m.messageResponseSchema);

/** Each token is spent once per page load, even when effects run twice. */
const handled = new Set<string>();

function takeParam(name: string): string | null {
  const url = new URL(window.location.href);
  const value = url.searchParams.get(name);
  if (value === null) return null;
  // The token leaves the address bar (and the history) before anything else happens.
  url.searchParams.delete(name);
  window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  return value;
}

const failed = (t: (key: TokenMessage) => string) => (err: unknown) =>
  // Spec section 8: the server's message, or a generic one.
  toast.error(err instanceof ApiError && err.body ? err.body.message : t("error"));

/**
 * Spec section 2: `emailToken` (e-mail verification) and `deletionToken` (account deletion) work on
 * any page; the e-mails link to the home page with them.
 */
export function spendAccountTokens(
  t: (key: TokenMessage) => string,
  { refresh, leave }: Pick<AuthState, "refresh" | "leave">,
): void {
  const emailToken = takeParam("emailToken");
  if (emailToken && !handled.has(emailToken)) {
    handled.add(emailToken);
    api(`/auth/verify/email/${encodeURIComponent(emailToken)}`, { method: "POST", schema: loadMessageSchema })
      .then(() => {
        toast.success(t("emailVerified"));
        void refresh();
      })
      .catch((err: unknown) => {
        // The link needs its follower to choose the password (issue 16): the verify-email page asks.
        // The token never goes back into an address.
        if (err instanceof ApiError && err.body?.errors?.password) {
          sessionStorage.setItem(PENDING_VERIFICATION_KEY, emailToken);
          window.location.assign("/verify-email");
        } else failed(t)(err);
      });
  }
  const deletionToken = takeParam("deletionToken");
  if (deletionToken && !handled.has(deletionToken)) {
    handled.add(deletionToken);
    api(`/profile/delete/${encodeURIComponent(deletionToken)}`, {
      method: "DELETE",
      schema: loadMessageSchema,
    })
      .then(() => {
        leave("/");
        toast.success(t("accountDeleted"));
      })
      .catch(failed(t));
  }
}
