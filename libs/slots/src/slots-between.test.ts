import { describe, expect, it } from 'vitest';
import { InvalidScheduleError, nextSlot, type PostingSchedule, slotsBetween } from './index.js';

const schedule = (timezone: string, slots: Array<[number, string]>, extra: Partial<PostingSchedule> = {}): PostingSchedule => ({
  timezone,
  max_posts_per_day: 10,
  paused: false,
  posting_slots: slots.map(([day_of_week, time_of_day], i) => ({ id: i + 1, day_of_week, time_of_day, enabled: true, source: 'manual' })),
  ...extra,
});
const everyDay = (...times: string[]): Array<[number, string]> => [0, 1, 2, 3, 4, 5, 6].flatMap((day) => times.map((time): [number, string] => [day, time]));
const between = (s: PostingSchedule, from: string, to: string): string[] => slotsBetween(s, new Date(from), new Date(to)).map((d) => d.toISOString());

describe('slotsBetween', () => {
  it('lists the slot instants of [from, to): from included, to excluded', () => {
    expect(between(schedule('UTC', everyDay('09:00')), '2026-01-05T09:00:00Z', '2026-01-08T09:00:00Z')).toEqual(['2026-01-05T09:00:00.000Z', '2026-01-06T09:00:00.000Z', '2026-01-07T09:00:00.000Z']);
  });

  it('keeps the local time across a DST change (America/New_York, 2026-03-08)', () => {
    expect(between(schedule('America/New_York', everyDay('09:00')), '2026-03-07T00:00:00Z', '2026-03-10T00:00:00Z')).toEqual([
      '2026-03-07T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
    ]);
  });

  it('orders slots of several days and times, skipping disabled ones', () => {
    const s = schedule('Asia/Tokyo', [
      [3, '18:00'],
      [1, '07:00'],
      [3, '08:00'],
    ]);
    const withDisabled: PostingSchedule = { ...s, posting_slots: [...s.posting_slots, { id: 9, day_of_week: 2, time_of_day: '12:00', enabled: false }] };
    expect(between(withDisabled, '2026-01-11T00:00:00Z', '2026-01-15T00:00:00Z')).toEqual([
      '2026-01-11T22:00:00.000Z', // Monday 07:00 JST
      '2026-01-13T23:00:00.000Z', // Wednesday 08:00 JST
      '2026-01-14T09:00:00.000Z', // Wednesday 18:00 JST
    ]);
  });

  it('shows the pattern whatever paused, taken and max_posts_per_day say', () => {
    const s = schedule('UTC', everyDay('09:00', '13:00'), { paused: true, max_posts_per_day: 1 });
    expect(between(s, '2026-01-05T00:00:00Z', '2026-01-06T00:00:00Z')).toEqual(['2026-01-05T09:00:00.000Z', '2026-01-05T13:00:00.000Z']);
  });

  it('is empty when to is not after from, or without enabled slots', () => {
    const s = schedule('UTC', everyDay('09:00'));
    expect(between(s, '2026-01-05T09:00:00Z', '2026-01-05T09:00:00Z')).toEqual([]);
    expect(between(s, '2026-01-06T00:00:00Z', '2026-01-05T00:00:00Z')).toEqual([]);
    expect(between(schedule('UTC', []), '2026-01-05T00:00:00Z', '2026-02-05T00:00:00Z')).toEqual([]);
  });

  it('agrees with nextSlot step by step through both DST changes of a year', () => {
    const s = schedule('America/New_York', [
      [0, '01:30'],
      [0, '02:30'],
      [0, '03:00'],
      [3, '23:45'],
      [6, '00:00'],
    ]);
    const listed = between(s, '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z');
    const stepped: string[] = [];
    let after = new Date('2025-12-31T23:59:59.999Z');
    for (let step = 0; step < 400; step++) {
      const found = nextSlot(s, { after, taken: [], horizonDays: 30 });
      if (!found || found >= new Date('2027-01-01T00:00:00Z')) break;
      expect(found.getTime()).toBeGreaterThan(after.getTime());
      stepped.push(found.toISOString());
      after = found;
    }
    expect(stepped).toEqual(listed);
    // 52 Sundays × 3 slots, less one on 8 March (02:30 and 03:00 are the same instant); 53 Wednesdays 23:45
    // (Wednesday 2025-12-31 23:45 EST is 2026-01-01T04:45Z); 52 Saturdays 00:00. Fall back does not add a 01:30.
    expect(listed).toHaveLength(52 * 3 - 1 + 53 + 52);
    expect(listed[0]).toBe('2026-01-01T04:45:00.000Z');
    expect(listed.filter((at) => at.startsWith('2026-11-01'))).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-01T07:30:00.000Z', '2026-11-01T08:00:00.000Z']);
  });

  it('throws InvalidScheduleError and RangeError on bad input', () => {
    expect(() => slotsBetween(schedule('Nowhere/City', []), new Date(0), new Date(1))).toThrow(InvalidScheduleError);
    expect(() => slotsBetween(schedule('UTC', []), new Date(Number.NaN), new Date(1))).toThrow(new RangeError('from must be a valid Date'));
  });
});
