import type { Catalogue } from "../types.ts";

/** The creator's customers screen's messages (issue 21) in French and Spanish. */
export const customerMessages: Catalogue = {
  "This customer was not found.": {
    fr: "Ce client est introuvable.",
    es: "No se encontró este cliente.",
  },
};
