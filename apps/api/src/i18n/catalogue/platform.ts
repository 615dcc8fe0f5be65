import type { Catalogue } from "../types.ts";

/** The answers every route may give (errors of the error handler, the auth rule and the maintenance gate), in French and Spanish. */
export const platformMessages: Catalogue = {
  "Some fields are invalid.": {
    fr: "Certains champs ne sont pas valides.",
    es: "Algunos campos no son válidos.",
  },
  "The request is malformed.": { fr: "La requête est mal formée.", es: "La solicitud está mal formada." },
  "The request is too large.": {
    fr: "La requête est trop volumineuse.",
    es: "La solicitud es demasiado grande.",
  },
  "Not found.": { fr: "Introuvable.", es: "No encontrado." },
  "Something went wrong.": { fr: "Une erreur s'est produite.", es: "Algo ha fallado." },
  "The service is briefly unavailable. Please try again in a moment.": {
    fr: "Le service est momentanément indisponible. Veuillez réessayer dans un instant.",
    es: "El servicio no está disponible por un momento. Vuelve a intentarlo en unos instantes.",
  },
  "You need to sign in.": { fr: "Vous devez vous connecter.", es: "Tienes que iniciar sesión." },
  "You are not allowed to do this.": {
    fr: "Vous n'êtes pas autorisé à faire cela.",
    es: "No tienes permiso para hacer esto.",
  },
  "The platform is under maintenance. Please try again later.": {
    fr: "La plateforme est en maintenance. Veuillez réessayer plus tard.",
    es: "La plataforma está en mantenimiento. Inténtalo más tarde.",
  },
  "The signature is not valid.": {
    fr: "La signature n'est pas valide.",
    es: "La firma no es válida.",
  },
};
