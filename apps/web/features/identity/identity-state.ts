import type { IdentityStatus } from "@salelink/contracts/identity";

/** What the person sees and can do, per group of provider statuses. */
export type IdentityView =
  | "none"
  | "inProgress"
  | "review"
  | "approved"
  | "declined"
  | "resubmission"
  | "expired";

export function identityView(status: IdentityStatus): IdentityView {
  switch (status) {
    case "none":
      return "none";
    case "created":
    case "started":
      return "inProgress";
    case "submitted":
    case "review":
      return "review";
    case "approved":
      return "approved";
    case "declined":
      return "declined";
    case "resubmission_requested":
      return "resubmission";
    case "expired":
    case "abandoned":
      return "expired";
  }
}

/** Statuses the provider's decision is still to replace: worth polling for after the person's return. */
export const awaitingDecision: ReadonlySet<IdentityStatus> = new Set(["created", "started", "submitted"]);

/** The query the provider's callback carries (`/account/wallet?identity=done`). */
export const RETURN_PARAM = "identity";
export const RETURN_VALUE = "done";
