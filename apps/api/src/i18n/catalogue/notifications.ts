import type { Catalogue } from "../types.ts";

/** The sale notifications' messages (issue 21) in French and Spanish. */
export const notificationMessages: Catalogue = {
  "Notification settings saved.": {
    fr: "Préférences de notification enregistrées.",
    es: "Preferencias de notificación guardadas.",
  },
  "Account not found.": { fr: "Compte introuvable.", es: "Cuenta no encontrada." },
};
