import { invalidParameters } from '@spa/errors';
import { DateTime } from 'luxon';

/** An inclusive range of calendar days (`YYYY-MM-DD`). */
export interface DayRange {
  start: string;
  end: string;
}

export const MAX_RANGE_DAYS = 366;
export const DEFAULT_RANGE_DAYS = 30;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const day = (iso: string): DateTime => DateTime.fromISO(iso, { zone: 'UTC' });
const iso = (d: DateTime): string => d.toISODate()!;

/** The calendar day of an instant in a zone. */
export const localDay = (at: Date, zone: string): string => iso(DateTime.fromJSDate(at, { zone }));

export const addDays = (date: string, n: number): string => iso(day(date).plus({ days: n }));

/** Days from `start` to `end`, both included. */
export const daysBetween = (r: DayRange): string[] => {
  const out: string[] = [];
  for (let d = r.start; d <= r.end; d = addDays(d, 1)) out.push(d);
  return out;
};

export const rangeLength = (r: DayRange): number => Math.round(day(r.end).diff(day(r.start), 'days').days) + 1;

/** The prior period of the same length, ending the day before `start`. */
export function comparisonRange(r: DayRange): DayRange {
  const end = addDays(r.start, -1);
  return { start: addDays(end, -(rangeLength(r) - 1)), end };
}

function parseDate(value: string | undefined, name: string, problems: string[]): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!DATE.test(value) || !day(value).isValid) {
    problems.push(`${name} must be a date YYYY-MM-DD (got ${JSON.stringify(value)})`);
    return undefined;
  }
  return value;
}

/**
 * The requested range: both ends inclusive; defaults to the last 30 days ending `today` (the
 * workspace's day); one end given: 30 days from or to it. 422 naming the parameter for a bad date,
 * an end before the start or a range over 366 days.
 */
export function resolveRange(startDate: string | undefined, endDate: string | undefined, today: string): DayRange {
  const problems: string[] = [];
  const start = parseDate(startDate, 'start_date', problems);
  const end = parseDate(endDate, 'end_date', problems);
  if (problems.length) throw invalidParameters(problems);
  const range: DayRange =
    start && end ? { start, end } : start ? { start, end: addDays(start, DEFAULT_RANGE_DAYS - 1) } : { start: addDays(end ?? today, -(DEFAULT_RANGE_DAYS - 1)), end: end ?? today };
  if (range.end < range.start) throw invalidParameters([`end_date must not be before start_date (${range.start})`]);
  if (rangeLength(range) > MAX_RANGE_DAYS) throw invalidParameters([`end_date: the range may span at most ${MAX_RANGE_DAYS} days (got ${rangeLength(range)})`]);
  return range;
}

/** `YYYY-MM` months touched by the ranges. */
export function monthsOf(...ranges: DayRange[]): string[] {
  const months = new Set<string>();
  for (const r of ranges) for (let m = r.start.slice(0, 7); m <= r.end.slice(0, 7); m = iso(day(`${m}-01`).plus({ months: 1 })).slice(0, 7)) months.add(m);
  return [...months].sort();
}

/** Weekday (0 = Sunday) of a calendar day. */
export const weekdayOf = (date: string): number => day(date).weekday % 7;

/** The calendar day and hour of an instant in a zone. */
export function localDayHour(at: Date, zone: string): { day: string; hour: number } {
  const local = DateTime.fromJSDate(at, { zone });
  return { day: iso(local), hour: local.hour };
}

/** Weekday (0 = Sunday) and hour of an instant in a zone. */
export function weekdayHour(at: Date, zone: string): { dayOfWeek: number; hour: number } {
  const local = DateTime.fromJSDate(at, { zone });
  return { dayOfWeek: local.weekday % 7, hour: local.hour };
}

/** Splits a span [from, to] into the local days it covers, each with its share of the span (sums to 1). */
export function dayShares(from: Date, to: Date, zone: string): Array<{ day: string; share: number }> {
  const span = to.getTime() - from.getTime();
  if (span <= 0) return [{ day: localDay(to, zone), share: 1 }];
  const out: Array<{ day: string; share: number }> = [];
  let cursor = DateTime.fromJSDate(from, { zone });
  const endMs = to.getTime();
  while (cursor.toMillis() < endMs) {
    const next = cursor.startOf('day').plus({ days: 1 });
    const stop = Math.min(next.toMillis(), endMs);
    out.push({ day: iso(cursor), share: (stop - cursor.toMillis()) / span });
    cursor = next;
  }
  return out;
}
