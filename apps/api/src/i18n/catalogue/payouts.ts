import type { Catalogue } from "../types.ts";

/** The payouts module's messages (withdrawals, bank accounts, the operator's payout steps) in French and Spanish. */
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
  // Bank accounts (payouts/bank-accounts and the contracts' IBAN and BIC rules)
  "Bank account deleted.": {
    fr: "Compte bancaire supprimé.",
    es: "Cuenta bancaria eliminada.",
  },
  "Enter an IBAN: two letters, two digits, then the account.": {
    fr: "Saisissez un IBAN : deux lettres, deux chiffres, puis le compte.",
    es: "Introduce un IBAN: dos letras, dos cifras y luego la cuenta.",
  },
  "Payouts go to banks in the 30 European countries we serve.": {
    fr: "Les virements vont vers des banques des 30 pays européens que nous servons.",
    es: "Los pagos van a bancos de los 30 países europeos en los que operamos.",
  },
  "This IBAN does not have the length of its country's.": {
    fr: "Cet IBAN n'a pas la longueur de celui de son pays.",
    es: "Este IBAN no tiene la longitud de los de su país.",
  },
  "This IBAN's check digits do not match: check for a typo.": {
    fr: "La clé de contrôle de cet IBAN ne correspond pas : vérifiez qu'il n'y a pas de faute de frappe.",
    es: "Los dígitos de control de este IBAN no coinciden: comprueba que no haya un error.",
  },
  "A BIC has 8 or 11 letters and digits.": {
    fr: "Un BIC compte 8 ou 11 lettres et chiffres.",
    es: "Un BIC tiene 8 u 11 letras y cifras.",
  },
};
