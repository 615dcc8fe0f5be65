import type { Catalogue } from "../types.ts";

/** The partners module's messages (creator partner programmes, issue 20) in French and Spanish. */
export const partnerMessages: Catalogue = {
  // The creator's programme
  "Only your own links can have a partner rate.": {
    fr: "Seuls vos propres liens peuvent avoir un taux de partenaire.",
    es: "Solo tus propios enlaces pueden tener una comisión de socio.",
  },
  // The contract's own field message (packages/contracts/src/partners.ts).
  "Each link can have one partner rate only.": {
    fr: "Chaque lien ne peut avoir qu'un seul taux de partenaire.",
    es: "Cada enlace solo puede tener una comisión de socio.",
  },
  "This partner was not found.": {
    fr: "Ce partenaire est introuvable.",
    es: "No se ha encontrado a este socio.",
  },
  "Only a pending application can be approved or refused.": {
    fr: "Seule une candidature en attente peut être acceptée ou refusée.",
    es: "Solo se puede aprobar o rechazar una solicitud pendiente.",
  },
  "Only an active partner can be removed.": {
    fr: "Seul un partenaire actif peut être retiré.",
    es: "Solo se puede retirar a un socio activo.",
  },
  "Partner approved.": { fr: "Partenaire accepté.", es: "Socio aprobado." },
  "Application refused.": { fr: "Candidature refusée.", es: "Solicitud rechazada." },
  "Partner removed.": { fr: "Partenaire retiré.", es: "Socio retirado." },
  // Invitations
  "You cannot invite yourself.": {
    fr: "Vous ne pouvez pas vous inviter vous-même.",
    es: "No puedes invitarte a ti mismo.",
  },
  "This person is already a partner of your programme.": {
    fr: "Cette personne est déjà partenaire de votre programme.",
    es: "Esta persona ya es socia de tu programa.",
  },
  "You have sent as many invitations as a day allows. Please try again later.": {
    fr: "Vous avez envoyé autant d'invitations qu'une journée le permet. Veuillez réessayer plus tard.",
    es: "Has enviado tantas invitaciones como se permite en un día. Inténtalo más tarde.",
  },
  "This invitation is invalid or has expired.": {
    fr: "Cette invitation n'est pas valide ou a expiré.",
    es: "Esta invitación no es válida o ha caducado.",
  },
  // Joining
  "You cannot join your own programme.": {
    fr: "Vous ne pouvez pas rejoindre votre propre programme.",
    es: "No puedes unirte a tu propio programa.",
  },
  "This programme is not open to new partners right now.": {
    fr: "Ce programme n'accueille pas de nouveaux partenaires pour le moment.",
    es: "Este programa no admite nuevos socios en este momento.",
  },
  "This programme takes partners by invitation only.": {
    fr: "Ce programme n'accueille des partenaires que sur invitation.",
    es: "Este programa solo admite socios por invitación.",
  },
  "You have already applied to this programme.": {
    fr: "Vous avez déjà postulé à ce programme.",
    es: "Ya has enviado una solicitud a este programa.",
  },
  "You are already a partner of this programme.": {
    fr: "Vous êtes déjà partenaire de ce programme.",
    es: "Ya eres socio de este programa.",
  },
  "The creator has closed your place in this programme: only an invitation from them can reopen it.": {
    fr: "Le créateur a fermé votre place dans ce programme : seule une invitation de sa part peut la rouvrir.",
    es: "El creador ha cerrado tu plaza en este programa: solo una invitación suya puede volver a abrirla.",
  },
  // Public
  "This invitation was not found, or is no longer pending.": {
    fr: "Cette invitation est introuvable ou n'est plus en attente.",
    es: "Esta invitación no existe o ya no está pendiente.",
  },
  "Invitation cancelled.": { fr: "Invitation annulée.", es: "Invitación cancelada." },
  "This programme was not found.": {
    fr: "Ce programme est introuvable.",
    es: "No se ha encontrado este programa.",
  },
};
