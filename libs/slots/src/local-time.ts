import { DateTime, IANAZone } from 'luxon';
import type { TimeOfDay } from './types.js';

export interface CalendarDate {
  year: number;
  /** 1 … 12 */
  month: number;
  day: number;
}

/**
 * The instant (epoch milliseconds) at which the wall clock of `zone` shows `time` on `date`.
 * All time zone data comes from luxon (ICU). Two DST cases get a fixed rule:
 *
 * - Spring-forward gap (the local time does not exist that day, e.g. 02:30 on 2026-03-08 in America/New_York,
 *   where clocks jump from 02:00 to 03:00): the slot moves to the FIRST VALID INSTANT AFTER THE GAP, that is the
 *   transition itself, 03:00 local (07:00Z in that example), whatever the slot's minute inside the gap. Every slot
 *   in the gap, and a 03:00 slot, land on that one instant and so count as a single slot. Luxon alone would add
 *   the gap length (02:30 → 03:30), which could put a 02:30 slot after a 03:15 slot; this rule keeps slot order.
 *   The transition is found to the millisecond, so 30-minute gaps (Australia/Lord_Howe) and whole skipped days
 *   (Pacific/Apia, 2011-12-30) follow the same rule.
 * - Fall-back overlap (the local time happens twice, e.g. 01:30 on 2026-11-01 in America/New_York): the slot
 *   is used ONCE, at its FIRST occurrence (01:30 EDT = 05:30Z, not 01:30 EST = 06:30Z). Luxon on its own picks
 *   the occurrence whose offset matches the current date, so it is not used for this choice.
 */
export function resolveLocalTime(zone: IANAZone, date: CalendarDate, time: TimeOfDay): number {
  const wanted = { ...date, hour: time.hour, minute: time.minute };
  const dt = DateTime.fromObject(wanted, { zone });
  const exists = dt.year === wanted.year && dt.month === wanted.month && dt.day === wanted.day && dt.hour === wanted.hour && dt.minute === wanted.minute;
  if (exists) return Math.min(...dt.getPossibleOffsets().map((candidate) => candidate.toMillis()));

  // In a gap, luxon reads the wall time with the offset from before the gap (so `dt` falls after the transition)
  // and reports the offset from after it. Read with the later offset, the same wall time falls before the
  // transition. Between the two, find the first millisecond that already has the later offset.
  const wallAsUtc = Date.UTC(wanted.year, wanted.month - 1, wanted.day, wanted.hour, wanted.minute);
  let before = wallAsUtc - dt.offset * 60_000;
  let after = dt.toMillis();
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (zone.offset(middle) === dt.offset) after = middle;
    else before = middle;
  }
  return after;
}
