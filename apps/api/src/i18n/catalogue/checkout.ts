import type { Catalogue } from "../messages.ts";

/** Checkout's limits (issue 16: oversell, stock squatting, promo code guessing) in French and Spanish. */
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
};
