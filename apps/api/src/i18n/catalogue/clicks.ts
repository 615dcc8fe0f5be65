import type { Catalogue } from "../messages.ts";

/** The click counter's messages in French and Spanish, keyed by the English text in the code. */
export const clickMessages: Catalogue = {
  "The token must be the one in the address.": {
    fr: "Le jeton doit être celui de l'adresse.",
    es: "El token debe ser el de la dirección.",
  },
};
