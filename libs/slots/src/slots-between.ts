import { assertValidDate } from './dates.js';
import { slotOccurrences } from './occurrences.js';
import type { PostingSchedule } from './types.js';
import { assertValidSchedule } from './validate.js';

/**
 * The enabled slot instants of the schedule with `from <= instant < to` (half-open, so consecutive windows
 * never repeat an instant), in increasing order: the schedule's pattern for listing and previews. It ignores
 * `paused`, taken posts and `max_posts_per_day` (nextSlot applies those). Same generator and DST rules as
 * nextSlot. Empty when `to` is not after `from`. Throws InvalidScheduleError or RangeError on bad input.
 */
export function slotsBetween(schedule: PostingSchedule, from: Date, to: Date): Date[] {
  assertValidSchedule(schedule);
  const fromMs = assertValidDate(from, 'from');
  const toMs = assertValidDate(to, 'to');
  return Array.from(slotOccurrences(schedule, fromMs, toMs), (slot) => new Date(slot.at));
}
