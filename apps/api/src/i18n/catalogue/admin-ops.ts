import type { Catalogue } from "../messages.ts";

/** The admin console's reports, orders and payouts export messages in French and Spanish. */
export const adminOpsMessages: Catalogue = {
  "Report not found.": { fr: "Signalement introuvable.", es: "No se ha encontrado la denuncia." },
  "This report was already handled.": {
    fr: "Ce signalement a déjà été traité.",
    es: "Esta denuncia ya se ha gestionado.",
  },
  "This link was deleted by its creator: dismiss the report.": {
    fr: "Ce lien a été supprimé par son créateur : classez le signalement.",
    es: "Su creador ha eliminado este enlace: descarta la denuncia.",
  },
  "A refund of this order is already under way.": {
    fr: "Un remboursement de cette commande est déjà en cours.",
    es: "Ya hay un reembolso de este pedido en curso.",
  },
  "Set PLATFORM_IBAN (and PLATFORM_BIC) in the API's configuration to export a SEPA transfer file.": {
    fr: "Renseignez PLATFORM_IBAN (et PLATFORM_BIC) dans la configuration de l'API pour exporter un fichier de virements SEPA.",
    es: "Configura PLATFORM_IBAN (y PLATFORM_BIC) en la configuración de la API para exportar un fichero de transferencias SEPA.",
  },
};
