import { nextSlot } from '@spa/slots';
import { DateTime } from 'luxon';
import { DAY_NAMES } from './model.js';

/** How far ahead a weekly time is looked for: one week and a day covers every DST shift. */
const HORIZON_DAYS = 8;

/**
 * The first instant strictly after `after` at which the wall clock of `timezone` shows `time` ("HH:MM") on
 * weekday `day` (0 = Sunday). DST, as for posting slots (@spa/slots): a time that does not exist that day
 * (spring-forward gap) runs at the first instant after the gap; a time that happens twice (fall-back
 * overlap) runs once, at its first occurrence.
 */
export function nextRunAt(day: number, time: string, timezone: string, after: Date): Date {
  const next = nextSlot({ timezone, max_posts_per_day: 1, paused: false, posting_slots: [{ day_of_week: day, time_of_day: time, enabled: true }] }, { after, taken: [], horizonDays: HORIZON_DAYS });
  if (!next) throw new RangeError(`no ${DAY_NAMES[day]} ${time} in ${timezone} within ${HORIZON_DAYS} days of ${after.toISOString()}`);
  return next;
}

/** The calendar date (YYYY-MM-DD) of an instant in a time zone. */
export const localDateOf = (at: Date, timezone: string): string => DateTime.fromJSDate(at, { zone: timezone }).toISODate() ?? '';

/**
 * The first run of a plan created or edited at `now`: the next occurrence from the start of the current minute,
 * so a plan whose schedule is the current minute runs now rather than a week later.
 */
export const firstRunAt = (day: number, time: string, timezone: string, now: Date): Date => nextRunAt(day, time, timezone, new Date(Math.floor(now.getTime() / 60_000) * 60_000 - 1));
