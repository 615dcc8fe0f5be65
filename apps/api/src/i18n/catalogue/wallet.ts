import type { Catalogue } from "../types.ts";

/** The wallet's messages in French and Spanish. */
export const walletMessages: Catalogue = {
  "There is not enough money in this balance for that.": {
    fr: "Ce solde ne contient pas assez d'argent pour cela.",
    es: "No hay suficiente dinero en este saldo para eso.",
  },
  "This account owes nothing in this currency.": {
    fr: "Ce compte ne doit rien dans cette devise.",
    es: "Esta cuenta no debe nada en esta moneda.",
  },
};
