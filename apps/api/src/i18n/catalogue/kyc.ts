import type { Catalogue } from "../types.ts";

/** The kyc module's messages (identity checks, and the identity form's fields) in French and Spanish. */
export const kycMessages: Catalogue = {
  // The identity form's field messages (contracts' identityFormSchema).
  "Enter your given name.": { fr: "Saisissez votre prénom.", es: "Introduce tu nombre." },
  "Enter your last name.": { fr: "Saisissez votre nom de famille.", es: "Introduce tus apellidos." },
  "At most 1000 characters.": { fr: "1000 caractères au maximum.", es: "1000 caracteres como máximo." },
  // modules/kyc
  "Your identity is already verified.": {
    fr: "Votre identité est déjà vérifiée.",
    es: "Tu identidad ya está verificada.",
  },
  "Your verification is being prepared. Please try again in a moment.": {
    fr: "Votre vérification est en cours de préparation. Veuillez réessayer dans un instant.",
    es: "Tu verificación se está preparando. Inténtalo de nuevo en un momento.",
  },
  "You can start {count} identity checks a day. You can start a new one in {wait}.": {
    fr: "Vous pouvez lancer {count} vérifications d'identité par jour. Vous pourrez en lancer une nouvelle dans {wait}.",
    es: "Puedes iniciar {count} verificaciones de identidad al día. Podrás iniciar una nueva dentro de {wait}.",
  },
  "The identity check could not be started. Please try again in a few minutes.": {
    fr: "La vérification d'identité n'a pas pu démarrer. Veuillez réessayer dans quelques minutes.",
    es: "No se ha podido iniciar la verificación de identidad. Inténtalo de nuevo en unos minutos.",
  },
  "This identity check is already decided.": {
    fr: "Cette vérification d'identité a déjà reçu une décision.",
    es: "Esta verificación de identidad ya tiene una decisión.",
  },
  "Identity check not found.": {
    fr: "Vérification d'identité introuvable.",
    es: "Verificación de identidad no encontrada.",
  },
  "The sandbox has sent its decision. It will show in a moment.": {
    fr: "Le bac à sable a envoyé sa décision. Elle s'affichera dans un instant.",
    es: "El entorno de pruebas ha enviado su decisión. Se mostrará en un momento.",
  },
};
