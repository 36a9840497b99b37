import { DateTime, IANAZone } from 'luxon';
import { resolveLocalTime } from './local-time.js';
import { parseTimeOfDay } from './time-of-day.js';
import type { PostingSchedule, TimeOfDay } from './types.js';

export interface SlotOccurrence {
  /** Epoch milliseconds. */
  at: number;
  /** The local calendar date of the instant in the schedule's time zone, "yyyy-MM-dd". A slot moved out of a
   *  spring-forward gap that skipped a whole day is dated by where it lands. */
  localDate: string;
}

/** The enabled slots of a schedule by day of week (0 = Sunday), each day's times sorted and without repeats. */
function enabledTimesByDay(schedule: PostingSchedule): Map<number, TimeOfDay[]> {
  const byDay = new Map<number, Map<string, TimeOfDay>>();
  for (const slot of schedule.posting_slots) {
    if (!slot.enabled) continue;
    const times = byDay.get(slot.day_of_week) ?? new Map<string, TimeOfDay>();
    times.set(slot.time_of_day, parseTimeOfDay(slot.time_of_day));
    byDay.set(slot.day_of_week, times);
  }
  const sorted = new Map<number, TimeOfDay[]>();
  for (const [day, times] of byDay)
    sorted.set(
      day,
      [...times.values()].sort((a, b) => a.hour - b.hour || a.minute - b.minute),
    );
  return sorted;
}

/**
 * The one slot generator behind nextSlot and slotsBetween: every enabled slot instant `t` of the schedule
 * with `fromMs <= t < toMs`, in increasing order, each instant once. It ignores `paused`, taken posts and
 * `max_posts_per_day`; the schedule must be valid (see validateSchedule). DST rules: see resolveLocalTime.
 */
export function* slotOccurrences(schedule: PostingSchedule, fromMs: number, toMs: number): Generator<SlotOccurrence> {
  const timesByDay = enabledTimesByDay(schedule);
  if (timesByDay.size === 0 || !(fromMs < toMs)) return;
  const zone = IANAZone.create(schedule.timezone);
  const start = DateTime.fromMillis(fromMs, { zone });
  const end = DateTime.fromMillis(toMs, { zone });
  // Walk local calendar dates with plain date arithmetic (a UTC cursor has no DST), from one day before the
  // date of `fromMs` (a slot moved forward out of a gap that swallowed a whole day lands on the next date)
  // to the date of `toMs`.
  let date = DateTime.utc(start.year, start.month, start.day).minus({ days: 1 });
  const lastDate = DateTime.utc(end.year, end.month, end.day);
  let last = -Infinity;
  while (date <= lastDate) {
    // Resolved instants never decrease with the wall time (gap → the transition, overlap → first occurrence),
    // so the first instant at or past `toMs` ends the walk.
    for (const time of timesByDay.get(date.weekday % 7) ?? []) {
      const at = resolveLocalTime(zone, { year: date.year, month: date.month, day: date.day }, time);
      if (at >= toMs) return;
      if (at < fromMs || at <= last) continue;
      last = at;
      yield { at, localDate: DateTime.fromMillis(at, { zone }).toISODate() ?? '' };
    }
    date = date.plus({ days: 1 });
  }
}
