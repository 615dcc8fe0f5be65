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
  // Issue 32: money that already left, and chargebacks.
  "This payment is disputed by the buyer's bank: it cannot be refunded until the dispute is closed.": {
    fr: "Ce paiement est contesté par la banque de l'acheteur : il ne peut pas être remboursé avant la fin de la contestation.",
    es: "El banco del comprador ha disputado este pago: no se puede reembolsar hasta que se cierre la disputa.",
  },
  "{amount} of this sale has already been paid out or claimed: refunding it would leave a debt. Ask our support to refund it.":
    {
      fr: "{amount} de cette vente a déjà été versé ou réclamé : la rembourser laisserait une dette. Demandez à notre support de la rembourser.",
      es: "{amount} de esta venta ya se ha pagado o reclamado: reembolsarla dejaría una deuda. Pide a nuestro soporte que la reembolse.",
    },
  "Dispute not found.": { fr: "Contestation introuvable.", es: "No se ha encontrado la disputa." },
  "The evidence of this dispute has already been sent.": {
    fr: "Les preuves de cette contestation ont déjà été envoyées.",
    es: "Las pruebas de esta disputa ya se han enviado.",
  },
  "This payment is already disputed.": {
    fr: "Ce paiement est déjà contesté.",
    es: "Este pago ya está disputado.",
  },
  "This dispute is already decided.": {
    fr: "Cette contestation est déjà tranchée.",
    es: "Esta disputa ya está resuelta.",
  },
};
