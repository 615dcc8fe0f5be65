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
  "The refund window of this sale is over.": {
    fr: "Le délai de remboursement de cette vente est passé.",
    es: "El plazo de reembolso de esta venta ha terminado.",
  },
  "At most {amount} can be refunded.": {
    fr: "Vous pouvez rembourser au plus {amount}.",
    es: "Se puede reembolsar como máximo {amount}.",
  },
  "The payment provider refused the refund.": {
    fr: "Le prestataire de paiement a refusé le remboursement.",
    es: "El proveedor de pagos ha rechazado el reembolso.",
  },
};
