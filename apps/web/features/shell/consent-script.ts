import { CONSENT_KEY } from "./consent.ts";

/**
 * Runs before the first paint, with the theme script (root layout): marks the page while no choice is
 * stored, so the banner, which is in every page's HTML, shows from the first paint for a new visitor
 * and never for a returning one. Shown by React after hydration instead, it was a phone's largest
 * (and latest) paint, seconds after the page's own content.
 */
export const consentScript = `(function(){var o;try{var v=localStorage.getItem("${CONSENT_KEY}");o=v!=="true"&&v!=="false";}catch(_){o=true;}if(o)document.documentElement.dataset.consentOpen="true";})();`;
