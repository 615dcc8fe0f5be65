import type { Catalogue } from "../types.ts";

/** The catalogue module's messages (profiles, links, promo codes) in French and Spanish. */
export const catalogueMessages: Catalogue = {
  // The portfolio and promo codes' contract messages (packages/contracts/src/catalogue.ts).
  "A link appears only once.": {
    fr: "Un lien ne peut figurer qu'une fois.",
    es: "Un enlace solo puede aparecer una vez.",
  },
  "Profile deleted.": { fr: "Profil supprimé.", es: "Perfil eliminado." },
  "Link deleted.": { fr: "Lien supprimé.", es: "Enlace eliminado." },
  "Promo code deleted.": { fr: "Code promo supprimé.", es: "Código promocional eliminado." },
  "This handle is already taken.": {
    fr: "Cet identifiant est déjà pris.",
    es: "Este identificador ya está en uso.",
  },
  "This profile still has links: delete them or move them first.": {
    fr: "Ce profil a encore des liens : supprimez-les ou déplacez-les d'abord.",
    es: "Este perfil todavía tiene enlaces: elimínalos o muévelos primero.",
  },
  "This link belongs to another profile.": {
    fr: "Ce lien appartient à un autre profil.",
    es: "Este enlace pertenece a otro perfil.",
  },
  "Upload an image for this.": {
    fr: "Téléversez une image pour cela.",
    es: "Sube una imagen para esto.",
  },
  "Only active links can be shown.": {
    fr: "Seuls les liens actifs peuvent être affichés.",
    es: "Solo se pueden mostrar los enlaces activos.",
  },
  "This link was removed by moderation; it cannot be put back on sale.": {
    fr: "Ce lien a été retiré par la modération ; il ne peut pas être remis en vente.",
    es: "Este enlace fue retirado por moderación; no se puede volver a poner a la venta.",
  },
  "The price must be between {min} and {max}.": {
    fr: "Le prix doit être compris entre {min} et {max}.",
    es: "El precio debe estar entre {min} y {max}.",
  },
  "You already have a promo code with this code.": {
    fr: "Vous avez déjà un code promo avec ce code.",
    es: "Ya tienes un código promocional con este código.",
  },
  "A percentage is between 1 and 100.": {
    fr: "Un pourcentage est compris entre 1 et 100.",
    es: "Un porcentaje está entre 1 y 100.",
  },
  "A percentage has no currency.": {
    fr: "Un pourcentage n'a pas de devise.",
    es: "Un porcentaje no tiene moneda.",
  },
  "A fixed amount needs a currency.": {
    fr: "Un montant fixe a besoin d'une devise.",
    es: "Un importe fijo necesita una moneda.",
  },
  "Unknown promo code.": { fr: "Code promo inconnu.", es: "Código promocional desconocido." },
  "This promo code has expired.": {
    fr: "Ce code promo a expiré.",
    es: "Este código promocional ha caducado.",
  },
  "This promo code is not valid for this link.": {
    fr: "Ce code promo n'est pas valable pour ce lien.",
    es: "Este código promocional no es válido para este enlace.",
  },
  "This promo code is in {promoCurrency}, the price in {priceCurrency}.": {
    fr: "Ce code promo est en {promoCurrency}, le prix en {priceCurrency}.",
    es: "Este código promocional está en {promoCurrency} y el precio en {priceCurrency}.",
  },
  "This promo code cannot be used.": {
    fr: "Ce code promo ne peut pas être utilisé.",
    es: "Este código promocional no se puede usar.",
  },
  "This promo code is used up.": {
    fr: "Ce code promo est épuisé.",
    es: "Este código promocional está agotado.",
  },
};
