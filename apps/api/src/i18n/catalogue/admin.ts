import type { Catalogue } from "../types.ts";

/** The admin console's messages (accounts, reports, exports) in French and Spanish. */
export const adminMessages: Catalogue = {
  "This account was not found.": {
    fr: "Ce compte est introuvable.",
    es: "No se ha encontrado esta cuenta.",
  },
  "You cannot suspend your own account.": {
    fr: "Vous ne pouvez pas suspendre votre propre compte.",
    es: "No puedes suspender tu propia cuenta.",
  },
  "This account is already suspended.": {
    fr: "Ce compte est déjà suspendu.",
    es: "Esta cuenta ya está suspendida.",
  },
  "This account is not suspended.": {
    fr: "Ce compte n'est pas suspendu.",
    es: "Esta cuenta no está suspendida.",
  },
  "You cannot remove your own admin role.": {
    fr: "Vous ne pouvez pas retirer votre propre rôle d'administrateur.",
    es: "No puedes quitarte tu propio rol de administrador.",
  },
  "This account already has this role.": {
    fr: "Ce compte a déjà ce rôle.",
    es: "Esta cuenta ya tiene este rol.",
  },
  "Your account is suspended: withdrawals are paused until it is reinstated. Contact support.": {
    fr: "Votre compte est suspendu : les retraits sont bloqués jusqu'à sa réactivation. Contactez le support.",
    es: "Tu cuenta está suspendida: las retiradas están bloqueadas hasta que se reactive. Contacta con soporte.",
  },
  "This account is suspended: its payouts cannot go ahead until it is reinstated.": {
    fr: "Ce compte est suspendu : ses virements ne peuvent pas avancer avant sa réactivation.",
    es: "Esta cuenta está suspendida: sus transferencias no pueden avanzar hasta que se reactive.",
  },
  // admin/reports and admin/exports
  "Report not found.": { fr: "Signalement introuvable.", es: "No se ha encontrado la denuncia." },
  "This report was already handled.": {
    fr: "Ce signalement a déjà été traité.",
    es: "Esta denuncia ya se ha gestionado.",
  },
  "This link was deleted by its creator: dismiss the report.": {
    fr: "Ce lien a été supprimé par son créateur : classez le signalement.",
    es: "Su creador ha eliminado este enlace: descarta la denuncia.",
  },
  "Set PLATFORM_IBAN (and PLATFORM_BIC) in the API's configuration to export a SEPA transfer file.": {
    fr: "Renseignez PLATFORM_IBAN (et PLATFORM_BIC) dans la configuration de l'API pour exporter un fichier de virements SEPA.",
    es: "Configura PLATFORM_IBAN (y PLATFORM_BIC) en la configuración de la API para exportar un fichero de transferencias SEPA.",
  },
};
