/** Whole minutes until `at` (ISO), at least 1, as the API counts them in its answers. */
export const minutesUntil = (at: string, now = Date.now()) =>
  Math.max(1, Math.ceil((Date.parse(at) - now) / 60_000));
