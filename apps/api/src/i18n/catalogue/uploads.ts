import type { Catalogue } from "../types.ts";

/** The uploads module's messages (rejections, quota, rate) in French and Spanish. */
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
  // The spec's rejection texts
  "File is of invalid type": {
    fr: "Le type de fichier n'est pas valide",
    es: "El tipo de archivo no es válido",
  },
  "File is too large": { fr: "Le fichier est trop volumineux", es: "El archivo es demasiado grande" },
  "File is too small": { fr: "Le fichier est trop petit", es: "El archivo es demasiado pequeño" },
  "Max files": { fr: "Nombre maximal de fichiers atteint", es: "Número máximo de archivos alcanzado" },
  "A file is required.": { fr: "Un fichier est requis.", es: "Se requiere un archivo." },
};
