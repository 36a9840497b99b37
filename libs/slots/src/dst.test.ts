import { DateTime } from 'luxon';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextSlot, type PostingSchedule, slotsBetween } from './index.js';

const schedule = (timezone: string, slots: Array<[number, string]>): PostingSchedule => ({
  timezone,
  max_posts_per_day: 10,
  paused: false,
  posting_slots: slots.map(([day_of_week, time_of_day], i) => ({ id: i + 1, day_of_week, time_of_day, enabled: true, source: 'manual' })),
});
const next = (s: PostingSchedule, after: string, taken: string[] = []): string | null => nextSlot(s, { after: new Date(after), taken: taken.map((t) => new Date(t)) })?.toISOString() ?? null;
const SUNDAY = 0;

describe('spring forward: a slot inside the gap moves to the first valid instant after it (the transition)', () => {
  it('America/New_York, Sunday 2026-03-08: 02:30 does not exist (02:00 → 03:00 EDT), the slot is 03:00 EDT = 07:00Z', () => {
    const s = schedule('America/New_York', [[SUNDAY, '02:30']]);
    expect(next(s, '2026-03-07T12:00:00Z')).toBe('2026-03-08T07:00:00.000Z');
    expect(next(s, '2026-03-08T07:00:00Z')).toBe('2026-03-15T06:30:00.000Z'); // a normal 02:30 EDT the week after
  });

  it('Europe/Berlin, Sunday 2026-03-29: 02:30 does not exist (02:00 → 03:00 CEST), the slot is 03:00 CEST = 01:00Z', () => {
    expect(next(schedule('Europe/Berlin', [[SUNDAY, '02:30']]), '2026-03-28T12:00:00Z')).toBe('2026-03-29T01:00:00.000Z');
  });

  it('slots in the gap and at its end are one instant, and keep their order with later slots', () => {
    const s = schedule('America/New_York', [
      [SUNDAY, '02:30'],
      [SUNDAY, '03:00'],
      [SUNDAY, '03:15'],
    ]);
    expect(slotsBetween(s, new Date('2026-03-08T05:00:00Z'), new Date('2026-03-09T04:00:00Z')).map((d) => d.toISOString())).toEqual(['2026-03-08T07:00:00.000Z', '2026-03-08T07:15:00.000Z']);
    expect(next(s, '2026-03-08T05:00:00Z', ['2026-03-08T07:00:00Z'])).toBe('2026-03-08T07:15:00.000Z');
  });

  it('Australia/Lord_Howe, Sunday 2026-10-04: a 30-minute gap (02:00 → 02:30), 02:15 becomes 02:30 local = 15:30Z the day before', () => {
    expect(next(schedule('Australia/Lord_Howe', [[SUNDAY, '02:15']]), '2026-10-01T00:00:00Z')).toBe('2026-10-03T15:30:00.000Z');
  });

  it('Pacific/Apia skipped Friday 2011-12-30: its 10:00 slot becomes Saturday 00:00 local (+14:00) = 10:00Z on the 30th', () => {
    const s = schedule('Pacific/Apia', [[5, '10:00']]);
    expect(next(s, '2011-12-28T00:00:00Z')).toBe('2011-12-30T10:00:00.000Z');
    // A window that opens at that instant (already Saturday locally) still holds the moved Friday slot.
    const window = slotsBetween(s, new Date('2011-12-30T10:00:00Z'), new Date('2011-12-31T10:00:00Z'));
    expect(window.map((d) => d.toISOString())).toEqual(['2011-12-30T10:00:00.000Z']);
  });
});

describe('fall back: a slot whose local time occurs twice is used once, at its first occurrence', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('America/New_York, Sunday 2026-11-01: 01:30 is 01:30 EDT = 05:30Z, and not again at 01:30 EST = 06:30Z', () => {
    const s = schedule('America/New_York', [[SUNDAY, '01:30']]);
    expect(next(s, '2026-10-31T12:00:00Z')).toBe('2026-11-01T05:30:00.000Z');
    expect(next(s, '2026-11-01T05:30:00Z')).toBe('2026-11-08T06:30:00.000Z'); // the following Sunday, 01:30 EST
  });

  it('Europe/Berlin, Sunday 2026-10-25: 02:30 is 02:30 CEST = 00:30Z', () => {
    const s = schedule('Europe/Berlin', [[SUNDAY, '02:30']]);
    expect(next(s, '2026-10-24T12:00:00Z')).toBe('2026-10-25T00:30:00.000Z');
    expect(next(s, '2026-10-25T00:30:00Z')).toBe('2026-11-01T01:30:00.000Z');
  });

  it('does not depend on the current date (luxon alone picks the occurrence by the offset in effect now)', () => {
    const s = schedule('America/New_York', [[SUNDAY, '01:30']]);
    const luxonAlone = () => DateTime.fromObject({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, { zone: 'America/New_York' }).toUTC().toISO();
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-07-01T12:00:00Z'));
    expect(luxonAlone()).toBe('2026-11-01T05:30:00.000Z');
    expect(next(s, '2026-10-31T12:00:00Z')).toBe('2026-11-01T05:30:00.000Z');
    vi.setSystemTime(new Date('2026-01-15T12:00:00Z'));
    expect(luxonAlone()).toBe('2026-11-01T06:30:00.000Z');
    expect(next(s, '2026-10-31T12:00:00Z')).toBe('2026-11-01T05:30:00.000Z');
  });
});
