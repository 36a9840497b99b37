/** Waits between attempts (contract: 10 s, 100 s, 15 min, 1 h, 2 h, 3 h): 7 attempts in all. */
export const RETRY_DELAYS_MS = [10_000, 100_000, 900_000, 3_600_000, 7_200_000, 10_800_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** Total time allowed for one attempt (resolve, connect, answer). */
export const ATTEMPT_TIMEOUT_MS = 5_000;
/**
 * How long a claimed attempt may go without a record before another dispatcher takes its claimer
 * for dead; also when a delivery whose last attempt is in flight is looked at again.
 */
export const CLAIM_LEASE_MS = 30_000;

/** When attempt `attempt + 1` is due if attempt `attempt` (1-based), made at `at`, fails; null when it was the last. */
export function nextAttemptAt(attempt: number, at: Date, attemptLimit = MAX_ATTEMPTS): Date | null {
  if (attempt >= attemptLimit) return null;
  const wait = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length) - 1] as number;
  return new Date(at.getTime() + wait);
}
