/*
 * Crawlers, link-preview fetchers and scripted clients, told apart by their user agent. Shared by the
 * web app (bare status answers instead of the error page) and the API (clicks from them are counted
 * apart, not as visits). Zod-free: the web proxy imports it.
 */

/** User agents of crawlers, link-preview fetchers (Facebook, Slack, WhatsApp, Discord, …) and scripts. */
export const botPattern =
  /bot\b|bot\/|crawler|spider|crawling|slurp|facebookexternalhit|facebot|embedly|quora link preview|outbrain|pinterest|vkshare|w3c_validator|whatsapp|telegram|skypeuripreview|discord|slack|bingpreview|headlesschrome\/.*lighthouse|curl\/|wget\/|python-requests|go-http-client|httpclient|okhttp/i;

export function isBot(userAgent: string | null | undefined): boolean {
  return Boolean(userAgent && botPattern.test(userAgent));
}
