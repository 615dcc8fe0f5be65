import type { Catalogue } from "../types.ts";

/** The orders module's messages (refunds) in French and Spanish. */
export const orderMessages: Catalogue = {
  "Only a paid order can be refunded.": {
    fr: "Seule une commande payée peut être remboursée.",
    es: "Solo se puede reembolsar un pedido pagado.",
  },
  "The refund has been asked for.": {
    fr: "Le remboursement a été demandé.",
    es: "Se ha solicitado el reembolso.",
  },
  "A refund of this order is already under way.": {
    fr: "Un remboursement de cette commande est déjà en cours.",
    es: "Ya hay un reembolso de este pedido en curso.",
  },
};
