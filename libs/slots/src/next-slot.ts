import { DateTime } from 'luxon';
import { assertValidDate } from './dates.js';
import { slotOccurrences } from './occurrences.js';
import type { PostingSchedule } from './types.js';
import { assertValidSchedule } from './validate.js';

/** How many days ahead nextSlot looks when not told otherwise. */
export const DEFAULT_HORIZON_DAYS = 60;

export interface NextSlotOptions {
  /** The slot must be strictly after this instant (usually now). */
  after: Date;
  /** When the account's posts are already scheduled. An instant in this list is not free, and every post counts
   *  toward `max_posts_per_day` of its local calendar day in the schedule's time zone, on a slot or not. */
  taken: readonly Date[];
  /** Look no further than this many local calendar days after `after` (a whole number, default 60). */
  horizonDays?: number;
}

/**
 * The earliest enabled slot instant strictly after `after` and no later than `horizonDays` local calendar days
 * after it (the same wall-clock time that many days later), that is not in `taken` and whose local day has
 * fewer than `max_posts_per_day` taken posts. Null when the schedule is paused, has no enabled slot, or has no
 * such instant within the horizon. DST rules: see resolveLocalTime (gap → 03:00-style transition instant,
 * overlap → first occurrence). Throws InvalidScheduleError for an invalid schedule, RangeError for bad options.
 */
export function nextSlot(schedule: PostingSchedule, options: NextSlotOptions): Date | null {
  assertValidSchedule(schedule);
  const afterMs = assertValidDate(options.after, 'after');
  const horizonDays = options.horizonDays ?? DEFAULT_HORIZON_DAYS;
  if (!Number.isInteger(horizonDays) || horizonDays < 0) throw new RangeError(`horizonDays must be a whole number of days, 0 or more (got ${horizonDays})`);
  if (schedule.paused) return null;

  const zone = schedule.timezone;
  const takenAt = new Set<number>();
  const postsPerDay = new Map<string, number>();
  options.taken.forEach((post, i) => {
    const ms = assertValidDate(post, `taken[${i}]`);
    takenAt.add(ms);
    const day = DateTime.fromMillis(ms, { zone }).toISODate() ?? '';
    postsPerDay.set(day, (postsPerDay.get(day) ?? 0) + 1);
  });

  const horizonMs = DateTime.fromMillis(afterMs, { zone }).plus({ days: horizonDays }).toMillis();
  for (const slot of slotOccurrences(schedule, afterMs + 1, horizonMs + 1)) {
    if (takenAt.has(slot.at)) continue;
    if ((postsPerDay.get(slot.localDate) ?? 0) >= schedule.max_posts_per_day) continue;
    return new Date(slot.at);
  }
  return null;
}
