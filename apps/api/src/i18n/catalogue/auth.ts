import type { Catalogue } from "../types.ts";

/** The auth module's messages (sign-in, sign-up, passwords, two-factor) in French and Spanish. */
export const authMessages: Catalogue = {
  "Invalid user credentials. Please try again.": {
    fr: "Identifiants invalides. Veuillez réessayer.",
    es: "Credenciales de usuario no válidas. Inténtalo de nuevo.",
  },
  "Please verify your e-mail address before signing in.": {
    fr: "Veuillez confirmer votre adresse e-mail avant de vous connecter.",
    es: "Confirma tu correo electrónico antes de iniciar sesión.",
  },
  "This account is protected by two-factor authentication.": {
    fr: "Ce compte est protégé par l'authentification à deux facteurs.",
    es: "Esta cuenta está protegida con autenticación en dos pasos.",
  },
  "Enter the code from your authenticator app.": {
    fr: "Saisissez le code de votre application d'authentification.",
    es: "Introduce el código de tu aplicación de autenticación.",
  },
  "The code is not valid. Please try again.": {
    fr: "Le code n'est pas valide. Veuillez réessayer.",
    es: "El código no es válido. Inténtalo de nuevo.",
  },
  "The bot check failed. Please try again.": {
    fr: "La vérification anti-robot a échoué. Veuillez réessayer.",
    es: "La verificación antibots ha fallado. Inténtalo de nuevo.",
  },
  "This verification link is invalid or has expired.": {
    fr: "Ce lien de vérification n'est pas valide ou a expiré.",
    es: "Este enlace de verificación no es válido o ha caducado.",
  },
  "This reset link is invalid or has expired.": {
    fr: "Ce lien de réinitialisation n'est pas valide ou a expiré.",
    es: "Este enlace de restablecimiento no es válido o ha caducado.",
  },
  "This deletion link is invalid or has expired.": {
    fr: "Ce lien de suppression n'est pas valide ou a expiré.",
    es: "Este enlace de eliminación no es válido o ha caducado.",
  },
  "The current password is not correct.": {
    fr: "Le mot de passe actuel n'est pas correct.",
    es: "La contraseña actual no es correcta.",
  },
  "The password is not correct.": {
    fr: "Le mot de passe n'est pas correct.",
    es: "La contraseña no es correcta.",
  },
  "Enter your current password.": {
    fr: "Saisissez votre mot de passe actuel.",
    es: "Introduce tu contraseña actual.",
  },
  "Choose a password to finish confirming your address.": {
    fr: "Choisissez un mot de passe pour terminer la confirmation de votre adresse.",
    es: "Elige una contraseña para terminar de confirmar tu dirección.",
  },
  "Two-factor authentication is already on.": {
    fr: "L'authentification à deux facteurs est déjà activée.",
    es: "La autenticación en dos pasos ya está activada.",
  },
  "Two-factor authentication is already off.": {
    fr: "L'authentification à deux facteurs est déjà désactivée.",
    es: "La autenticación en dos pasos ya está desactivada.",
  },
  "Start the set-up first.": {
    fr: "Commencez d'abord la configuration.",
    es: "Empieza primero la configuración.",
  },
  "You have sent too many requests. Please slow down and try again in {after}.": {
    fr: "Vous avez envoyé trop de requêtes. Veuillez ralentir et réessayer dans {after}.",
    es: "Has enviado demasiadas solicitudes. Ve más despacio e inténtalo de nuevo en {after}.",
  },
  "Signed in.": { fr: "Connecté.", es: "Sesión iniciada." },
  "Signed out.": { fr: "Déconnecté.", es: "Sesión cerrada." },
  "Check your e-mail to confirm your address.": {
    fr: "Consultez vos e-mails pour confirmer votre adresse.",
    es: "Revisa tu correo para confirmar tu dirección.",
  },
  "Email successfully verified.": {
    fr: "E-mail vérifié avec succès.",
    es: "Correo electrónico verificado correctamente.",
  },
  "If this address has an account waiting for confirmation, a new link is on its way.": {
    fr: "Si cette adresse a un compte en attente de confirmation, un nouveau lien est en route.",
    es: "Si esta dirección tiene una cuenta pendiente de confirmar, te llegará un nuevo enlace.",
  },
  "If this address has an account, a reset link is on its way.": {
    fr: "Si cette adresse a un compte, un lien de réinitialisation est en route.",
    es: "Si esta dirección tiene una cuenta, te llegará un enlace para restablecer la contraseña.",
  },
  "Your password has been reset. You can sign in now.": {
    fr: "Votre mot de passe a été réinitialisé. Vous pouvez vous connecter.",
    es: "Tu contraseña se ha restablecido. Ya puedes iniciar sesión.",
  },
  "Your password has been changed. Please sign in again.": {
    fr: "Votre mot de passe a été modifié. Veuillez vous reconnecter.",
    es: "Tu contraseña se ha cambiado. Vuelve a iniciar sesión.",
  },
  "Two-factor authentication is off.": {
    fr: "L'authentification à deux facteurs est désactivée.",
    es: "La autenticación en dos pasos está desactivada.",
  },
};
