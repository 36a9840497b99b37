import type { DeliveryStatus } from './model.js';

/** Consecutive failed events (every attempt used up) that disable a webhook. */
export const AUTO_DISABLE_AFTER = 10;

/**
 * The reason to disable a webhook given its latest finished deliveries (newest first, since it was
 * last enabled), or undefined: disabled when the latest 10 all failed; any success breaks the run.
 */
export function autoDisableReason(recent: DeliveryStatus[]): string | undefined {
  const latest = recent.slice(0, AUTO_DISABLE_AFTER);
  if (latest.length < AUTO_DISABLE_AFTER || latest.some((s) => s !== 'failed')) return undefined;
  return `disabled automatically after ${AUTO_DISABLE_AFTER} consecutive failed events`;
}
