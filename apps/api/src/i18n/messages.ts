import type { Locale } from "@salelink/contracts";
import { adminMessages } from "./catalogue/admin.ts";
import { adminOpsMessages } from "./catalogue/admin-ops.ts";
import { affiliateMessages } from "./catalogue/affiliates.ts";
import { checkoutMessages } from "./catalogue/checkout.ts";
import { clickMessages } from "./catalogue/clicks.ts";
import { identityMessages } from "./catalogue/identity.ts";
import { payoutMessages } from "./catalogue/payouts.ts";
import { uploadMessages } from "./catalogue/uploads.ts";

export type Catalogue = Record<string, { fr: string; es: string }>;

/**
 * What the API says to people, in the two other languages, keyed by the English text written in
 * the code. A test fails when a message in the code has no entry here.
 */
export const messages: Catalogue = {
  ...adminMessages,
  ...adminOpsMessages,
  ...affiliateMessages,
  ...checkoutMessages,
  ...clickMessages,
  ...identityMessages,
  ...payoutMessages,
  ...uploadMessages,
  // Errors
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
  "Invalid user credentials. Please try again.": {
    fr: "Identifiants invalides. Veuillez réessayer.",
    es: "Credenciales de usuario no válidas. Inténtalo de nuevo.",
  },
  "Please verify your e-mail address before signing in.": {
    fr: "Veuillez confirmer votre adresse e-mail avant de vous connecter.",
    es: "Confirma tu correo electrónico antes de iniciar sesión.",
  },
  "Please verify your e-mail address first.": {
    fr: "Veuillez d'abord confirmer votre adresse e-mail.",
    es: "Confirma primero tu correo electrónico.",
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
  "You must be at least {age} years old.": {
    fr: "Vous devez avoir au moins {age} ans.",
    es: "Debes tener al menos {age} años.",
  },
  "You have sent too many requests. Please slow down and try again in {after}.": {
    fr: "Vous avez envoyé trop de requêtes. Veuillez ralentir et réessayer dans {after}.",
    es: "Has enviado demasiadas solicitudes. Ve más despacio e inténtalo de nuevo en {after}.",
  },
  // Successes
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
  // Catalogue
  "Profile deleted.": { fr: "Profil supprimé.", es: "Perfil eliminado." },
  "Link deleted.": { fr: "Lien supprimé.", es: "Enlace eliminado." },
  "Promo code deleted.": { fr: "Code promo supprimé.", es: "Código promocional eliminado." },
  "This handle is already taken.": {
    fr: "Cet identifiant est déjà pris.",
    es: "Este identificador ya está en uso.",
  },
  "This profile still has links: delete them or move them first.": {
    fr: "Ce profil a encore des liens : supprimez-les ou déplacez-les d'abord.",
    es: "Este perfil todavía tiene enlaces: elimínalos o muévelos primero.",
  },
  "This link belongs to another profile.": {
    fr: "Ce lien appartient à un autre profil.",
    es: "Este enlace pertenece a otro perfil.",
  },
  "There is not enough money in this balance for that.": {
    fr: "Ce solde ne contient pas assez d'argent pour cela.",
    es: "No hay suficiente dinero en este saldo para eso.",
  },
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
  "Only a paid order can be refunded.": {
    fr: "Seule une commande payée peut être remboursée.",
    es: "Solo se puede reembolsar un pedido pagado.",
  },
  "The refund has been asked for.": {
    fr: "Le remboursement a été demandé.",
    es: "Se ha solicitado el reembolso.",
  },
  "Bank account deleted.": {
    fr: "Compte bancaire supprimé.",
    es: "Cuenta bancaria eliminada.",
  },
  "Enter an IBAN: two letters, two digits, then the account.": {
    fr: "Saisissez un IBAN : deux lettres, deux chiffres, puis le compte.",
    es: "Introduce un IBAN: dos letras, dos cifras y luego la cuenta.",
  },
  "Payouts go to banks in the 30 European countries we serve.": {
    fr: "Les virements vont vers des banques des 30 pays européens que nous servons.",
    es: "Los pagos van a bancos de los 30 países europeos en los que operamos.",
  },
  "This IBAN does not have the length of its country's.": {
    fr: "Cet IBAN n'a pas la longueur de celui de son pays.",
    es: "Este IBAN no tiene la longitud de los de su país.",
  },
  "This IBAN's check digits do not match: check for a typo.": {
    fr: "La clé de contrôle de cet IBAN ne correspond pas : vérifiez qu'il n'y a pas de faute de frappe.",
    es: "Los dígitos de control de este IBAN no coinciden: comprueba que no haya un error.",
  },
  "A BIC has 8 or 11 letters and digits.": {
    fr: "Un BIC compte 8 ou 11 lettres et chiffres.",
    es: "Un BIC tiene 8 u 11 letras y cifras.",
  },
  "Your card was declined.": {
    fr: "Votre carte a été refusée.",
    es: "Tu tarjeta ha sido rechazada.",
  },
  "This is the sandbox: pay with one of the test cards shown.": {
    fr: "Ceci est le bac à sable : payez avec l'une des cartes de test indiquées.",
    es: "Esto es el entorno de pruebas: paga con una de las tarjetas de prueba indicadas.",
  },
  "The confirmation was refused.": {
    fr: "La confirmation a été refusée.",
    es: "La confirmación ha sido rechazada.",
  },
  "The signature is not valid.": {
    fr: "La signature n'est pas valide.",
    es: "La firma no es válida.",
  },
  "This payment cannot be paid again.": {
    fr: "Ce paiement ne peut pas être payé à nouveau.",
    es: "Este pago no se puede volver a pagar.",
  },
  "This payment is not waiting for a confirmation.": {
    fr: "Ce paiement n'attend pas de confirmation.",
    es: "Este pago no está esperando una confirmación.",
  },
  "This link is not on sale.": {
    fr: "Ce lien n'est pas en vente.",
    es: "Este enlace no está a la venta.",
  },
  "This link is sold out.": {
    fr: "Ce lien est épuisé.",
    es: "Este enlace está agotado.",
  },
  "The payment could not be started. Please try again.": {
    fr: "Le paiement n'a pas pu démarrer. Veuillez réessayer.",
    es: "No se ha podido iniciar el pago. Inténtalo de nuevo.",
  },
  "Upload an image for this.": {
    fr: "Téléversez une image pour cela.",
    es: "Sube una imagen para esto.",
  },
  "Only active links can be shown.": {
    fr: "Seuls les liens actifs peuvent être affichés.",
    es: "Solo se pueden mostrar los enlaces activos.",
  },
  "This link was removed by moderation; it cannot be put back on sale.": {
    fr: "Ce lien a été retiré par la modération ; il ne peut pas être remis en vente.",
    es: "Este enlace fue retirado por moderación; no se puede volver a poner a la venta.",
  },
  "The price must be between {min} and {max}.": {
    fr: "Le prix doit être compris entre {min} et {max}.",
    es: "El precio debe estar entre {min} y {max}.",
  },
  "You already have a promo code with this code.": {
    fr: "Vous avez déjà un code promo avec ce code.",
    es: "Ya tienes un código promocional con este código.",
  },
  "A percentage is between 1 and 100.": {
    fr: "Un pourcentage est compris entre 1 et 100.",
    es: "Un porcentaje está entre 1 y 100.",
  },
  "A percentage has no currency.": {
    fr: "Un pourcentage n'a pas de devise.",
    es: "Un porcentaje no tiene moneda.",
  },
  "A fixed amount needs a currency.": {
    fr: "Un montant fixe a besoin d'une devise.",
    es: "Un importe fijo necesita una moneda.",
  },
  "This promo code cannot be used.": {
    fr: "Ce code promo ne peut pas être utilisé.",
    es: "Este código promocional no se puede usar.",
  },
  "Unknown promo code.": { fr: "Code promo inconnu.", es: "Código promocional desconocido." },
  "This promo code has expired.": {
    fr: "Ce code promo a expiré.",
    es: "Este código promocional ha caducado.",
  },
  "This promo code is used up.": {
    fr: "Ce code promo est épuisé.",
    es: "Este código promocional está agotado.",
  },
  "This promo code is not valid for this link.": {
    fr: "Ce code promo n'est pas valable pour ce lien.",
    es: "Este código promocional no es válido para este enlace.",
  },
  "This promo code is in {promoCurrency}, the price in {priceCurrency}.": {
    fr: "Ce code promo est en {promoCurrency}, le prix en {priceCurrency}.",
    es: "Este código promocional está en {promoCurrency} y el precio en {priceCurrency}.",
  },
  // Uploads (the spec's rejection texts)
  "File is of invalid type": {
    fr: "Le type de fichier n'est pas valide",
    es: "El tipo de archivo no es válido",
  },
  "File is too large": { fr: "Le fichier est trop volumineux", es: "El archivo es demasiado grande" },
  "File is too small": { fr: "Le fichier est trop petit", es: "El archivo es demasiado pequeño" },
  "Max files": { fr: "Nombre maximal de fichiers atteint", es: "Número máximo de archivos alcanzado" },
  "A file is required.": { fr: "Un fichier est requis.", es: "Se requiere un archivo." },
};

/** Whether a text is one of ours (a contract's own field message), with its translations here. */
export const isOurMessage = (text: string): boolean => Object.hasOwn(messages, text);

/** The English text in `locale`, with `{name}` placeholders filled; unknown texts stay English. */
export function translate(
  locale: Locale,
  text: string,
  params: Record<string, string | number> = {},
): string {
  const entry = locale === "en" ? undefined : messages[text]?.[locale];
  return (entry ?? text).replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}
