/** Crawlers and link-preview fetchers: they get bare status answers instead of the error page. */
const botPattern =
  /bot\b|bot\/|crawler|spider|crawling|slurp|facebookexternalhit|facebot|embedly|quora link preview|outbrain|pinterest|vkshare|w3c_validator|whatsapp|telegram|skypeuripreview|discord|slack|bingpreview|headlesschrome\/.*lighthouse|curl\/|wget\/|python-requests|go-http-client|httpclient|okhttp/i;

export function isBot(userAgent: string | null | undefined): boolean {
  return Boolean(userAgent && botPattern.test(userAgent));
}
