import type { Catalogue } from "../types.ts";

/** The messages of reporting a link (the buyer's side; the admin side is in admin.ts) in French and Spanish. */
export const reportMessages: Catalogue = {
  "Thank you. Our team will look at your report.": {
    fr: "Merci. Notre équipe va examiner votre signalement.",
    es: "Gracias. Nuestro equipo revisará tu denuncia.",
  },
  "You have already reported this. Our team will look at it.": {
    fr: "Vous l'avez déjà signalé. Notre équipe va l'examiner.",
    es: "Ya lo has denunciado. Nuestro equipo lo revisará.",
  },
  "You have sent {limit} reports today, the most we accept in a day. Please try again tomorrow.": {
    fr: "Vous avez envoyé {limit} signalements aujourd'hui, le maximum que nous acceptons par jour. Veuillez réessayer demain.",
    es: "Has enviado {limit} denuncias hoy, el máximo que aceptamos al día. Inténtalo de nuevo mañana.",
  },
};
