export interface BackoffOptions {
  /** Delay after the first failed attempt is baseMs × 2. */
  baseMs: number;
  /** No retry waits longer than this. */
  maxMs: number;
  /** Fraction (0 to < 0.5) of the delay removed at random. */
  jitter: number;
}

export const defaultBackoff: BackoffOptions = { baseMs: 1000, maxMs: 60 * 60 * 1000, jitter: 0.25 };

/**
 * How long a job waits before its next attempt, after `attempts` attempts: baseMs × 2^attempts,
 * capped at maxMs. The jitter only shortens the delay, so the cap stays a true maximum, and while it
 * is below one half the windows of consecutive attempts never overlap: retries spread out without
 * ever waiting less than the attempt before.
 */
export function backoffMs(
  attempts: number,
  options: BackoffOptions = defaultBackoff,
  random: () => number = Math.random,
): number {
  // Bounded exponent: 2 ** 1100 is Infinity, and any cap is reached long before 2 ** 60.
  const exponential = options.baseMs * 2 ** Math.min(Math.max(attempts, 0), 60);
  const capped = Math.min(options.maxMs, exponential);
  return Math.round(capped * (1 - options.jitter * random()));
}
