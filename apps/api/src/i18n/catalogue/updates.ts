import type { Catalogue } from "../types.ts";

/** Updates to buyers and their unsubscribe link (issue 21) in French and Spanish. */
export const updateMessages: Catalogue = {
  "This link is not one of yours.": {
    fr: "Ce lien ne fait pas partie des vôtres.",
    es: "Este enlace no es uno de los tuyos.",
  },
  "Update not found.": {
    fr: "Nouvelle introuvable.",
    es: "Novedad no encontrada.",
  },
  "This unsubscribe link is not valid. Use the one in the e-mail.": {
    fr: "Ce lien de désabonnement n'est pas valide. Utilisez celui de l'e-mail.",
    es: "Este enlace para darse de baja no es válido. Usa el del correo.",
  },
  "You can send {max} updates a day. The next one is possible in {hours} h.": {
    fr: "Vous pouvez envoyer {max} nouvelles par jour. La prochaine sera possible dans {hours} h.",
    es: "Puedes enviar {max} novedades al día. La siguiente será posible dentro de {hours} h.",
  },
};
