/**
 * What public API reads (a link, a creator page, a partner programme) may be cached as, by browsers
 * and CDNs: an edit shows within half a minute.
 */
export const PUBLIC_READ_CACHE_CONTROL = "public, max-age=30, stale-while-revalidate=300";
