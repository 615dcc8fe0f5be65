import { NextIntlClientProvider } from "next-intl";
import { getMessages } from "next-intl/server";
import type { ReactNode } from "react";

/** What every page's client components need: the shell (header, consent, toasts, tokens, guards). */
export const shellNamespaces = [
  "consent",
  "theme",
  "locale",
  "nav",
  "auth",
  "maintenance",
  "errors",
  "tokens",
];

/**
 * Sends the browser only the message namespaces a part of the site uses, so public pages do not
 * carry every form's text. A nested provider replaces its parent's messages, hence the shell too.
 */
export async function ClientMessages({
  namespaces,
  children,
}: {
  namespaces: string[];
  children: ReactNode;
}) {
  const messages = await getMessages();
  const picked = Object.fromEntries(
    [...new Set([...shellNamespaces, ...namespaces])].map((ns) => [ns, messages[ns]]),
  );
  return <NextIntlClientProvider messages={picked}>{children}</NextIntlClientProvider>;
}
