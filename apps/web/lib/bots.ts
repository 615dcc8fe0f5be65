/** Crawlers and link-preview fetchers: they get bare status answers instead of the error page. */
export { botPattern, isBot } from "@salelink/contracts/bots";
