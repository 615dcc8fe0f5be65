import type { Catalogue } from "../messages.ts";

/** The payouts module's messages in French and Spanish, keyed by the English text in the code. */
export const payoutMessages: Catalogue = {
  "This bank account was not found.": {
    fr: "Ce compte bancaire est introuvable.",
    es: "No se ha encontrado esta cuenta bancaria.",
  },
  "This payout was not found.": {
    fr: "Ce virement est introuvable.",
    es: "No se ha encontrado esta transferencia.",
  },
  "You already have a withdrawal in progress: wait until it is paid or failed.": {
    fr: "Vous avez déjà un retrait en cours : attendez qu'il soit versé ou en échec.",
    es: "Ya tienes una retirada en curso: espera a que se pague o falle.",
  },
  "Finish setting up your account before withdrawing.": {
    fr: "Terminez la configuration de votre compte avant de retirer de l'argent.",
    es: "Termina de configurar tu cuenta antes de retirar dinero.",
  },
  "Verify your identity before withdrawing: it takes a few minutes, from your wallet.": {
    fr: "Vérifiez votre identité avant de retirer de l'argent : cela prend quelques minutes, depuis votre portefeuille.",
    es: "Verifica tu identidad antes de retirar dinero: se hace en unos minutos, desde tu monedero.",
  },
  "The minimum withdrawal is {minimum}.": {
    fr: "Le retrait minimum est de {minimum}.",
    es: "La retirada mínima es de {minimum}.",
  },
  "You can withdraw at most {available}.": {
    fr: "Vous pouvez retirer au plus {available}.",
    es: "Puedes retirar como máximo {available}.",
  },
  "A withdrawal to this bank account is in progress: you can delete it once it is paid or failed.": {
    fr: "Un retrait vers ce compte bancaire est en cours : vous pourrez le supprimer une fois le retrait versé ou en échec.",
    es: "Hay una retirada en curso a esta cuenta bancaria: podrás eliminarla cuando se pague o falle.",
  },
  "Only a requested payout can be approved.": {
    fr: "Seul un virement demandé peut être approuvé.",
    es: "Solo se puede aprobar una transferencia solicitada.",
  },
  "This payout was requested through another payout provider.": {
    fr: "Ce virement a été demandé via un autre prestataire de virements.",
    es: "Esta transferencia se solicitó con otro proveedor de pagos.",
  },
  "Stripe reports this payout's outcome itself.": {
    fr: "Stripe communique lui-même l'issue de ce virement.",
    es: "Stripe comunica por sí mismo el resultado de esta transferencia.",
  },
  "Only a payout being processed can be marked paid.": {
    fr: "Seul un virement en cours de traitement peut être marqué comme versé.",
    es: "Solo una transferencia en proceso puede marcarse como pagada.",
  },
  "Only a requested or processing payout can be failed.": {
    fr: "Seul un virement demandé ou en cours de traitement peut être mis en échec.",
    es: "Solo una transferencia solicitada o en proceso puede marcarse como fallida.",
  },
  "Your wallet still holds money: withdraw it, or wait for your payout, before deleting your account.": {
    fr: "Votre portefeuille contient encore de l'argent : retirez-le, ou attendez votre virement, avant de supprimer votre compte.",
    es: "Tu monedero aún tiene dinero: retíralo, o espera a tu pago, antes de eliminar tu cuenta.",
  },
};
