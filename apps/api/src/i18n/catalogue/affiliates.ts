import type { Catalogue } from "../types.ts";

/** The affiliates module's messages (campaigns, commissions, the click counter) in French and Spanish. */
export const affiliateMessages: Catalogue = {
  "This campaign was not found.": {
    fr: "Cette campagne est introuvable.",
    es: "No se ha encontrado esta campaña.",
  },
  "Nothing to claim yet.": {
    fr: "Rien à réclamer pour le moment.",
    es: "Todavía no hay nada que reclamar.",
  },
  "Your commissions cannot be claimed right now. Please try again later.": {
    fr: "Vos commissions ne peuvent pas être réclamées pour le moment. Veuillez réessayer plus tard.",
    es: "Tus comisiones no se pueden reclamar en este momento. Inténtalo más tarde.",
  },
  "Nothing to change.": { fr: "Rien à modifier.", es: "No hay nada que cambiar." },
  // The name of the campaign every account gets at sign-up.
  "My link": { fr: "Mon lien", es: "Mi enlace" },
  // affiliates/clicks
  "The token must be the one in the address.": {
    fr: "Le jeton doit être celui de l'adresse.",
    es: "El token debe ser el de la dirección.",
  },
};
