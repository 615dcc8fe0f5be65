import type { Catalogue } from "../types.ts";

/** The buyer's library's messages (issue 21) in French and Spanish. */
export const purchaseMessages: Catalogue = {
  "If this address was used for a purchase, a link to your purchases is on its way. It works once, for {minutes} minutes.":
    {
      fr: "Si cette adresse a servi à un achat, un lien vers vos achats est en route. Il fonctionne une seule fois, pendant {minutes} minutes.",
      es: "Si esta dirección se usó para una compra, un enlace a tus compras está en camino. Funciona una sola vez, durante {minutes} minutos.",
    },
  "This access to your purchases has expired. Ask for a new link.": {
    fr: "Cet accès à vos achats a expiré. Demandez un nouveau lien.",
    es: "Este acceso a tus compras ha caducado. Pide un enlace nuevo.",
  },
  "This link no longer works. Ask for a new one: it is valid for one hour, once.": {
    fr: "Ce lien ne fonctionne plus. Demandez-en un nouveau : il est valable une heure, une seule fois.",
    es: "Este enlace ya no funciona. Pide uno nuevo: es válido una hora, una sola vez.",
  },
  "Verify your e-mail address to see its purchases.": {
    fr: "Confirmez votre adresse e-mail pour voir ses achats.",
    es: "Verifica tu dirección de correo para ver sus compras.",
  },
  "This order was not found among your purchases.": {
    fr: "Cette commande ne figure pas parmi vos achats.",
    es: "Este pedido no está entre tus compras.",
  },
  "This receipt was sent again a moment ago. Try again in {minutes} min.": {
    fr: "Ce reçu vient d'être renvoyé. Réessayez dans {minutes} min.",
    es: "Este recibo se acaba de reenviar. Inténtalo de nuevo en {minutes} min.",
  },
  "The receipt is on its way to {email}.": {
    fr: "Le reçu est en route vers {email}.",
    es: "El recibo va de camino a {email}.",
  },
};
