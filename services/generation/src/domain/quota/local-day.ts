import { DateTime, IANAZone } from 'luxon';

export interface LocalDay {
  /** The local calendar date, YYYY-MM-DD. */
  date: string;
  /** The next local midnight (the start of the next local day), as an instant. */
  resetsAt: Date;
  /** The zone actually used (UTC when the given one is not a usable IANA zone). */
  zone: string;
}

/**
 * The calendar day `now` falls on in `zone`, and when it ends. DST-safe: luxon computes the start of the next local
 * day, so a 23- or 25-hour day ends at its real midnight, and a day whose midnight is skipped by a DST jump (e.g.
 * America/Santiago, America/Havana) ends at the first instant of the next day.
 */
export function localDay(now: Date, zone: string): LocalDay {
  const usable = IANAZone.isValidZone(zone) ? zone : 'UTC';
  const local = DateTime.fromJSDate(now, { zone: usable });
  const next = local.plus({ days: 1 }).startOf('day');
  return { date: local.toISODate()!, resetsAt: next.toJSDate(), zone: usable };
}

/** Whole seconds from `now` until `until`, rounded up, at least 1 (a Retry-After value). */
export function secondsUntil(now: Date, until: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}
