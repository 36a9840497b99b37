import { AppError } from '@spa/errors';
import type { Tier } from '@spa/vocabulary';
import type { WorkspaceSettings } from './ports.js';

/** Plans on which a post may recur (evergreen, its variations, interval and jitter). */
export const RECURRING_TIERS: readonly Tier[] = ['pro', 'team'];

/** Bounds of `recurrence_interval_days`: days from a posting to the earliest time of its recurrence. */
export const MIN_RECURRENCE_INTERVAL_DAYS = 1;
export const MAX_RECURRENCE_INTERVAL_DAYS = 365;
export const DEFAULT_RECURRENCE_INTERVAL_DAYS = 30;

/** The jitter window: a recurrence's earliest time moves by up to ±25% of the interval, at most ±12 hours. */
export const JITTER_FRACTION = 0.25;
export const MAX_JITTER_MS = 12 * 3_600_000;

const DAY_MS = 86_400_000;

/** The recurrence fields of a create or an update; absent fields are not being set. */
export interface RecurrenceFields {
  evergreen?: boolean | undefined;
  evergreenVariations?: string[] | undefined;
  recurrenceJitterEnabled?: boolean | undefined;
  recurrenceIntervalDays?: number | undefined;
}

/** The recurrence fields a request turns on (setting them off is allowed on every plan). */
export function recurringFieldsSet(f: RecurrenceFields): string[] {
  return [
    ...(f.evergreen ? ['evergreen'] : []),
    ...(f.evergreenVariations?.length ? ['evergreen_variations'] : []),
    ...(f.recurrenceJitterEnabled ? ['recurrence_jitter_enabled'] : []),
    ...(f.recurrenceIntervalDays !== undefined ? ['recurrence_interval_days'] : []),
  ];
}

/**
 * Recurring posts need Pro or Team: 403 TIER_UPGRADE_REQUIRED naming the fields (and, in a bulk
 * create, the items) that set them. `items` holds one entry per post; `prefix` names it.
 */
export function assertRecurringAllowed(settings: WorkspaceSettings, items: Array<{ prefix: string; fields: RecurrenceFields }>): void {
  if (!settings.tier || RECURRING_TIERS.includes(settings.tier as Tier)) return;
  const details = items.flatMap(({ prefix, fields }) => recurringFieldsSet(fields).map((f) => `${prefix}${f}`));
  if (!details.length) return;
  throw new AppError('TIER_UPGRADE_REQUIRED', `Recurring posts (evergreen, recurrence) need the Pro or Team plan; this workspace is on ${settings.tier}`, { details });
}

/** Problems with the recurrence fields of a post as a whole (bounds), one message each naming the field. */
export function recurrenceProblems(f: RecurrenceFields): string[] {
  const problems: string[] = [];
  const days = f.recurrenceIntervalDays;
  if (days !== undefined && (!Number.isInteger(days) || days < MIN_RECURRENCE_INTERVAL_DAYS || days > MAX_RECURRENCE_INTERVAL_DAYS)) {
    problems.push(`recurrence_interval_days must be an integer from ${MIN_RECURRENCE_INTERVAL_DAYS} to ${MAX_RECURRENCE_INTERVAL_DAYS} (got ${days})`);
  }
  (f.evergreenVariations ?? []).forEach((v, i) => {
    if (!v.trim()) problems.push(`evergreen_variations[${i}] is empty`);
  });
  return problems;
}

/** The largest shift jitter may apply to a recurrence of this interval. */
export const jitterWindowMs = (intervalDays: number): number => Math.min(MAX_JITTER_MS, intervalDays * DAY_MS * JITTER_FRACTION);

/**
 * The earliest time of the recurrence of a posting: `postedAt` + the interval, shifted by a uniform
 * random amount in ±the jitter window when jitter is on. `random` returns [0, 1).
 */
export function recurrenceEarliest(postedAt: Date, intervalDays: number, jitter: boolean, random: () => number): Date {
  const base = postedAt.getTime() + intervalDays * DAY_MS;
  if (!jitter) return new Date(base);
  const w = jitterWindowMs(intervalDays);
  return new Date(Math.round(base + (random() * 2 - 1) * w));
}
