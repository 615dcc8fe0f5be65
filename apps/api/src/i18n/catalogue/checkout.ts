import type { Catalogue } from "../types.ts";

/** The checkout module's messages (paying, the sandbox payment provider, issue 16's limits) in French and Spanish. */
export const checkoutMessages: Catalogue = {
  "All remaining units are reserved by buyers paying now. Try again in {minutes} min.": {
    fr: "Toutes les unités restantes sont réservées par des acheteurs en train de payer. Réessayez dans {minutes} min.",
    es: "Todas las unidades restantes están reservadas por compradores que están pagando. Inténtalo de nuevo en {minutes} min.",
  },
  "The remaining uses of this promo code are reserved by buyers paying now. Try again in {minutes} min.": {
    fr: "Les utilisations restantes de ce code promo sont réservées par des acheteurs en train de payer. Réessayez dans {minutes} min.",
    es: "Los usos restantes de este código promocional están reservados por compradores que están pagando. Inténtalo de nuevo en {minutes} min.",
  },
  "Too many wrong promo codes. Please try again in {minutes} min.": {
    fr: "Trop de codes promo erronés. Veuillez réessayer dans {minutes} min.",
    es: "Demasiados códigos promocionales incorrectos. Inténtalo de nuevo en {minutes} min.",
  },
  "You have started too many checkouts. Please try again in {minutes} min.": {
    fr: "Vous avez commencé trop de paiements. Veuillez réessayer dans {minutes} min.",
    es: "Has iniciado demasiados pagos. Inténtalo de nuevo en {minutes} min.",
  },
  // Paying, and the sandbox payment provider's card form
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
  "Choose your country.": { fr: "Choisissez votre pays.", es: "Elige tu país." },
  "This checkout is paid on the payment provider's own form.": {
    fr: "Ce paiement se fait sur le formulaire du prestataire de paiement.",
    es: "Este pago se hace en el formulario del proveedor de pagos.",
  },
  "This checkout has ended. Please start again from the link.": {
    fr: "Ce paiement est terminé. Recommencez depuis le lien.",
    es: "Este pago ha terminado. Vuelve a empezar desde el enlace.",
  },
  "Your payment details have expired. Please enter them again.": {
    fr: "Vos informations de paiement ont expiré. Saisissez-les à nouveau.",
    es: "Tus datos de pago han caducado. Vuelve a introducirlos.",
  },
  "The payment could not be completed. Please try again.": {
    fr: "Le paiement n'a pas pu aboutir. Veuillez réessayer.",
    es: "No se ha podido completar el pago. Inténtalo de nuevo.",
  },
  "Your card was declined. Try another card or contact your bank.": {
    fr: "Votre carte a été refusée. Essayez une autre carte ou contactez votre banque.",
    es: "Tu tarjeta ha sido rechazada. Prueba otra tarjeta o contacta con tu banco.",
  },
  "Your bank did not confirm the payment. Try again or use another card.": {
    fr: "Votre banque n'a pas confirmé le paiement. Réessayez ou utilisez une autre carte.",
    es: "Tu banco no ha confirmado el pago. Inténtalo de nuevo o usa otra tarjeta.",
  },
  "Choose one of the two countries offered.": {
    fr: "Choisissez l'un des deux pays proposés.",
    es: "Elige uno de los dos países propuestos.",
  },
  "This is not a valid VAT number.": {
    fr: "Ce numéro de TVA n'est pas valide.",
    es: "Este número de IVA no es válido.",
  },
  "This VAT number is not registered (VIES).": {
    fr: "Ce numéro de TVA n'est pas enregistré (VIES).",
    es: "Este número de IVA no está registrado (VIES).",
  },
};
