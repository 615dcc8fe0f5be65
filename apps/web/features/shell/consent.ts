/** Spec section 3: the choice is stored as "true" or "false" under this local-storage key. */
export const CONSENT_KEY = "cookie-consent";
/** Fired on window when the visitor accepts. */
export const CONSENT_EVENT = "cookie-accepted";

export function readConsent(): "true" | "false" | null {
  try {
    const value = localStorage.getItem(CONSENT_KEY);
    return value === "true" || value === "false" ? value : null;
  } catch {
    return null;
  }
}

export function storeConsent(accepted: boolean): void {
  localStorage.setItem(CONSENT_KEY, accepted ? "true" : "false");
  if (accepted) window.dispatchEvent(new Event(CONSENT_EVENT));
}
