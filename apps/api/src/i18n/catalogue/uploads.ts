import type { Catalogue } from "../messages.ts";

/** The uploads module's quota and rate messages in French and Spanish (issue 16). */
export const uploadMessages: Catalogue = {
  "Your storage is full. Delete files you no longer need.": {
    fr: "Votre espace de stockage est plein. Supprimez les fichiers dont vous n'avez plus besoin.",
    es: "Tu almacenamiento está lleno. Elimina los archivos que ya no necesites.",
  },
  "Maximum total size exceeded": {
    fr: "Taille totale maximale dépassée",
    es: "Se ha superado el tamaño total máximo",
  },
  "You have uploaded too many files. Please try again in {after}.": {
    fr: "Vous avez envoyé trop de fichiers. Veuillez réessayer dans {after}.",
    es: "Has subido demasiados archivos. Vuelve a intentarlo dentro de {after}.",
  },
};
