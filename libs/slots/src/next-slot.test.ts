import { describe, expect, it } from 'vitest';
import { InvalidScheduleError, nextSlot, type PostingSchedule } from './index.js';

type SlotSpec = [day_of_week: number, time_of_day: string, enabled?: boolean];
const schedule = (timezone: string, slots: SlotSpec[], extra: Partial<PostingSchedule> = {}): PostingSchedule => ({
  timezone,
  max_posts_per_day: 10,
  paused: false,
  posting_slots: slots.map(([day_of_week, time_of_day, enabled = true], i) => ({ id: i + 1, day_of_week, time_of_day, enabled, source: 'manual' })),
  ...extra,
});
const everyDay = (...times: string[]): SlotSpec[] => [0, 1, 2, 3, 4, 5, 6].flatMap((day) => times.map((time): SlotSpec => [day, time]));
const next = (s: PostingSchedule, after: string, taken: string[] = [], horizonDays?: number): string | null =>
  nextSlot(s, { after: new Date(after), taken: taken.map((t) => new Date(t)), ...(horizonDays === undefined ? {} : { horizonDays }) })?.toISOString() ?? null;

// 2026-01-01 is a Thursday: Mon 5, Wed 7, Fri 9, Sat 10, Sun 11, Mon 12 January.
describe('nextSlot: the week', () => {
  it('rolls over to the next week, ignoring disabled slots', () => {
    const s = schedule('UTC', [
      [1, '09:00', false],
      [1, '10:00'],
    ]);
    expect(next(s, '2026-01-07T10:00:00Z')).toBe('2026-01-12T10:00:00.000Z');
  });

  it('rolls over from Saturday to Sunday', () => {
    const s = schedule('UTC', [
      [6, '20:00'],
      [0, '08:00'],
    ]);
    expect(next(s, '2026-01-10T21:00:00Z')).toBe('2026-01-11T08:00:00.000Z');
  });

  it('answers a slot strictly after `after`', () => {
    const s = schedule('UTC', [[1, '09:00']]);
    expect(next(s, '2026-01-12T09:00:00.000Z')).toBe('2026-01-19T09:00:00.000Z');
    expect(next(s, '2026-01-12T08:59:59.999Z')).toBe('2026-01-12T09:00:00.000Z');
  });
});

describe('nextSlot: time zones', () => {
  it('Asia/Tokyo (UTC+9): Monday 07:00 local is Sunday 22:00 UTC', () => {
    expect(next(schedule('Asia/Tokyo', [[1, '07:00']]), '2026-01-11T00:00:00Z')).toBe('2026-01-11T22:00:00.000Z');
  });

  it('America/Los_Angeles: Friday 18:30 local is Saturday UTC, at -08:00 in winter and -07:00 in summer', () => {
    const s = schedule('America/Los_Angeles', [[5, '18:30']]);
    expect(next(s, '2026-01-09T12:00:00Z')).toBe('2026-01-10T02:30:00.000Z');
    expect(next(s, '2026-07-03T12:00:00Z')).toBe('2026-07-04T01:30:00.000Z');
  });
});

describe('nextSlot: taken slots and the daily maximum', () => {
  it('skips instants already taken, and only those exact instants', () => {
    const s = schedule('UTC', everyDay('09:00', '13:00'));
    expect(next(s, '2026-01-07T00:00:00Z', ['2026-01-07T09:00:00Z', '2026-01-07T13:00:00Z'])).toBe('2026-01-08T09:00:00.000Z');
    expect(next(s, '2026-01-07T00:00:00Z', ['2026-01-07T09:00:00.001Z'])).toBe('2026-01-07T09:00:00.000Z');
  });

  it('counts a post at 23:30 local toward its local day, not the UTC day (America/New_York)', () => {
    // 2026-01-08T04:30Z is 23:30 on Wednesday 7 January in New York (EST, UTC-5).
    const taken = ['2026-01-08T04:30:00Z'];
    const s = schedule('America/New_York', everyDay('09:00', '20:00'), { max_posts_per_day: 1 });
    // 7 January is full, so its 20:00 slot (01:00Z on the 8th) is skipped; 8 January 09:00 local is free.
    expect(next(s, '2026-01-07T15:00:00Z', taken)).toBe('2026-01-08T14:00:00.000Z');
    // With room for two, the 20:00 slot of 7 January is used.
    expect(next({ ...s, max_posts_per_day: 2 }, '2026-01-07T15:00:00Z', taken)).toBe('2026-01-08T01:00:00.000Z');
  });

  it('counts a post at 00:30 local toward its local day, not the previous UTC day (Asia/Tokyo)', () => {
    // 2026-01-07T15:30Z is 00:30 on Thursday 8 January in Tokyo.
    const taken = ['2026-01-07T15:30:00Z'];
    const s = schedule('Asia/Tokyo', everyDay('08:00', '21:00'), { max_posts_per_day: 1 });
    expect(next(s, '2026-01-07T03:00:00Z', taken)).toBe('2026-01-07T12:00:00.000Z'); // 7 January 21:00 local
    expect(next(s, '2026-01-07T12:00:00Z', taken)).toBe('2026-01-08T23:00:00.000Z'); // 9 January 08:00 local
  });

  it('counts every taken post, on a slot or not', () => {
    const s = schedule('UTC', everyDay('09:00', '13:00', '17:00'), { max_posts_per_day: 2 });
    expect(next(s, '2026-01-07T10:00:00Z', ['2026-01-07T08:15:00Z', '2026-01-07T09:00:00Z'])).toBe('2026-01-08T09:00:00.000Z');
    expect(next(s, '2026-01-07T10:00:00Z', ['2026-01-07T09:00:00Z'])).toBe('2026-01-07T13:00:00.000Z');
  });
});

describe('nextSlot: no slot', () => {
  it('answers null for a paused schedule', () => {
    const s = schedule('UTC', everyDay('09:00'));
    expect(next(s, '2026-01-07T00:00:00Z')).toBe('2026-01-07T09:00:00.000Z');
    expect(next({ ...s, paused: true }, '2026-01-07T00:00:00Z')).toBeNull();
  });

  it('answers null without enabled slots', () => {
    expect(
      next(
        schedule('UTC', [
          [1, '09:00', false],
          [3, '10:00', false],
        ]),
        '2026-01-07T00:00:00Z',
      ),
    ).toBeNull();
    expect(next(schedule('UTC', []), '2026-01-07T00:00:00Z')).toBeNull();
  });

  it('looks no further than horizonDays, inclusive of its last instant', () => {
    const s = schedule('UTC', [[1, '09:00']]);
    expect(next(s, '2026-01-06T10:00:00Z', [], 5)).toBeNull();
    expect(next(s, '2026-01-06T10:00:00Z', [], 6)).toBe('2026-01-12T09:00:00.000Z');
    expect(next(s, '2026-01-05T09:00:00Z', [], 7)).toBe('2026-01-12T09:00:00.000Z');
    expect(next(s, '2026-01-05T09:00:00Z', [], 6)).toBeNull();
    expect(next(s, '2026-01-05T08:00:00Z', [], 0)).toBeNull();
  });

  it('looks 60 days ahead by default', () => {
    // After 2026-01-01T00:00Z, the default horizon ends at 2026-03-02T00:00Z; its last daily slot is 1 March 09:00.
    const s = schedule('UTC', everyDay('09:00'), { max_posts_per_day: 1 });
    const fullDays = (count: number) => Array.from({ length: count }, (_, i) => new Date(Date.UTC(2026, 0, 1 + i, 12)).toISOString());
    expect(next(s, '2026-01-01T00:00:00Z', fullDays(59))).toBe('2026-03-01T09:00:00.000Z');
    expect(next(s, '2026-01-01T00:00:00Z', fullDays(60))).toBeNull();
  });
});

describe('nextSlot: bad input', () => {
  it('throws InvalidScheduleError listing the problems', () => {
    const call = () => next(schedule('EST', [[1, '9:00']]), '2026-01-07T00:00:00Z');
    expect(call).toThrow(InvalidScheduleError);
    expect(call).toThrow(
      'Invalid posting schedule: timezone: must be an IANA time zone name such as "Europe/Berlin" or "UTC" (got "EST"); posting_slots[0].time_of_day: must be "HH:MM", 24-hour, 00:00 to 23:59 (got "9:00")',
    );
  });

  it('throws RangeError for invalid dates and horizons', () => {
    const s = schedule('UTC', [[1, '09:00']]);
    expect(() => nextSlot(s, { after: new Date(Number.NaN), taken: [] })).toThrow(new RangeError('after must be a valid Date'));
    expect(() => nextSlot(s, { after: new Date(0), taken: [new Date('nope')] })).toThrow(new RangeError('taken[0] must be a valid Date'));
    expect(() => nextSlot(s, { after: new Date(0), taken: [], horizonDays: -1 })).toThrow(RangeError);
    expect(() => nextSlot(s, { after: new Date(0), taken: [], horizonDays: 1.5 })).toThrow(RangeError);
  });
});
