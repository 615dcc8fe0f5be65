import type { Catalogue } from "../types.ts";

/** The payouts module's messages (withdrawals, bank accounts, the operator's payout steps) in French and Spanish. */
export const payoutMessages: Catalogue = {
  "This bank account was not found.": {
    fr: "Ce compte bancaire est introuvable.",
    es: "No se ha encontrado esta cuenta bancaria.",
  },
  "This bank account is paid in {accountCurrency}: choose one that takes {currency}.": {
    fr: "Ce compte bancaire est payé en {accountCurrency} : choisissez-en un qui accepte les {currency}.",
    es: "Esta cuenta bancaria se paga en {accountCurrency}: elige una que acepte {currency}.",
  },
  "The payout threshold must be at least the minimum payout, {minimum}.": {
    fr: "Le seuil de virement doit être au moins égal au virement minimum, {minimum}.",
    es: "El umbral de transferencia debe ser al menos la transferencia mínima, {minimum}.",
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
  "Your account owes money from a refund or a dispute of a sale already paid out: it can be deleted once that is repaid.":
    {
      fr: "Votre compte doit de l'argent après un remboursement ou une contestation d'une vente déjà versée : il pourra être supprimé une fois cette somme remboursée.",
      es: "Tu cuenta debe dinero por un reembolso o una disputa de una venta ya pagada: podrá eliminarse cuando se haya reembolsado.",
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
  "Payouts go to IBANs in the 30 European countries we serve and Switzerland.": {
    fr: "Les virements vont vers des IBAN des 30 pays européens que nous servons et de Suisse.",
    es: "Los pagos van a IBAN de los 30 países europeos en los que operamos y de Suiza.",
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
  // Issue 23: Swiss IBANs in francs, British and American accounts (the contracts' field rules)
  "Only a Swiss account is paid in francs.": {
    fr: "Seul un compte suisse est payé en francs.",
    es: "Solo una cuenta suiza se paga en francos.",
  },
  "A sort code has 6 digits.": {
    fr: "Un sort code compte 6 chiffres.",
    es: "Un sort code tiene 6 cifras.",
  },
  "A UK account number has 8 digits.": {
    fr: "Un numéro de compte britannique compte 8 chiffres.",
    es: "Un número de cuenta británico tiene 8 cifras.",
  },
  "A routing number has 9 digits.": {
    fr: "Un numéro de routage (routing number) compte 9 chiffres.",
    es: "Un número de ruta (routing number) tiene 9 cifras.",
  },
  "This routing number's check digit does not match: check for a typo.": {
    fr: "Le chiffre de contrôle de ce numéro de routage ne correspond pas : vérifiez qu'il n'y a pas de faute de frappe.",
    es: "El dígito de control de este número de ruta no coincide: comprueba que no haya un error.",
  },
  "A US account number has 4 to 17 digits.": {
    fr: "Un numéro de compte américain compte de 4 à 17 chiffres.",
    es: "Un número de cuenta estadounidense tiene de 4 a 17 cifras.",
  },
  // Issue 32: payouts wait while an account owes money.
  "You owe {amount} from a refund or a dispute of a sale already paid out: it is repaid from your next sales before any payout.":
    {
      fr: "Vous devez {amount} après un remboursement ou une contestation d'une vente déjà versée : cette somme est remboursée par vos prochaines ventes avant tout virement.",
      es: "Debes {amount} por un reembolso o una disputa de una venta ya pagada: se reembolsa con tus próximas ventas antes de cualquier pago.",
    },
  "This account owes money from a refund or a dispute: its payouts wait until the debt is repaid or written off.":
    {
      fr: "Ce compte doit de l'argent après un remboursement ou une contestation : ses virements attendent que la dette soit remboursée ou passée en perte.",
      es: "Esta cuenta debe dinero por un reembolso o una disputa: sus pagos esperan hasta que la deuda se reembolse o se dé por perdida.",
    },
};
