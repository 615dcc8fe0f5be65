import type { Catalogue } from "../types.ts";

/** Invoices' downloads, creators' statements and the One-Stop Shop report (issue 22) in French and Spanish. */
export const invoiceMessages: Catalogue = {
  "Invoice not found.": { fr: "Facture introuvable.", es: "Factura no encontrada." },
  "A month is written YYYY-MM.": {
    fr: "Un mois s'écrit AAAA-MM.",
    es: "Un mes se escribe AAAA-MM.",
  },
  "This month has not started yet.": {
    fr: "Ce mois n'a pas encore commencé.",
    es: "Este mes todavía no ha empezado.",
  },
  "A quarter is written YYYY-Q1 to YYYY-Q4.": {
    fr: "Un trimestre s'écrit AAAA-Q1 à AAAA-Q4.",
    es: "Un trimestre se escribe AAAA-Q1 a AAAA-Q4.",
  },
  "This quarter has not started yet.": {
    fr: "Ce trimestre n'a pas encore commencé.",
    es: "Este trimestre todavía no ha empezado.",
  },
};
