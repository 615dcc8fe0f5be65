import type { Catalogue } from "../types.ts";

/** The account module's messages (onboarding, language, deletion) in French and Spanish. */
export const accountMessages: Catalogue = {
  "Please verify your e-mail address first.": {
    fr: "Veuillez d'abord confirmer votre adresse e-mail.",
    es: "Confirma primero tu correo electrónico.",
  },
  "You must be at least {age} years old.": {
    fr: "Vous devez avoir au moins {age} ans.",
    es: "Debes tener al menos {age} años.",
  },
  "A company in the EU gives its VAT number.": {
    fr: "Une entreprise de l'UE indique son numéro de TVA.",
    es: "Una empresa de la UE indica su número de IVA.",
  },
  "Language saved.": { fr: "Langue enregistrée.", es: "Idioma guardado." },
  "Onboarding complete.": { fr: "Profil complété.", es: "Perfil completado." },
  "We sent you an e-mail with a link to confirm the deletion.": {
    fr: "Nous vous avons envoyé un e-mail avec un lien pour confirmer la suppression.",
    es: "Te hemos enviado un correo con un enlace para confirmar la eliminación.",
  },
  "Your account has been deleted.": {
    fr: "Votre compte a été supprimé.",
    es: "Tu cuenta ha sido eliminada.",
  },
};
