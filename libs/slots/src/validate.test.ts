import { describe, expect, it } from 'vitest';
import { validateSchedule } from './index.js';

const valid = {
  timezone: 'Europe/Berlin',
  max_posts_per_day: 3,
  paused: false,
  posting_slots: [
    { id: 1, day_of_week: 1, time_of_day: '09:00', enabled: true, source: 'default' },
    { id: 2, day_of_week: 1, time_of_day: '13:00', enabled: false, source: 'manual' },
    { id: 3, day_of_week: 0, time_of_day: '09:00', enabled: true, source: 'manual' },
  ],
};

describe('validateSchedule', () => {
  it('finds no problem in a valid schedule, nor in one without slots', () => {
    expect(validateSchedule(valid)).toEqual([]);
    expect(validateSchedule({ ...valid, posting_slots: [] })).toEqual([]);
  });

  it('names every problem by its field', () => {
    expect(
      validateSchedule({
        timezone: 'EST',
        max_posts_per_day: 0,
        paused: 'no',
        posting_slots: [
          { day_of_week: 1, time_of_day: '09:00', enabled: true },
          { day_of_week: 7, time_of_day: '10:00', enabled: true },
          { day_of_week: 2, time_of_day: '9:00', enabled: true },
          { day_of_week: 1, time_of_day: '09:00', enabled: false },
          'x',
          { day_of_week: 1.5, time_of_day: '24:00' },
          { day_of_week: -1, time_of_day: '10:00', enabled: true },
        ],
      }),
    ).toEqual([
      'timezone: must be an IANA time zone name such as "Europe/Berlin" or "UTC" (got "EST")',
      'max_posts_per_day: must be an integer of at least 1 (got 0)',
      'paused: must be true or false (got "no")',
      'posting_slots[1].day_of_week: must be an integer from 0 (Sunday) to 6 (Saturday) (got 7)',
      'posting_slots[2].time_of_day: must be "HH:MM", 24-hour, 00:00 to 23:59 (got "9:00")',
      'posting_slots[3]: duplicates posting_slots[0] (Monday 09:00)',
      'posting_slots[4]: must be an object',
      'posting_slots[5].day_of_week: must be an integer from 0 (Sunday) to 6 (Saturday) (got 1.5)',
      'posting_slots[5].time_of_day: must be "HH:MM", 24-hour, 00:00 to 23:59 (got "24:00")',
      'posting_slots[5].enabled: must be true or false (got nothing)',
      'posting_slots[6].day_of_week: must be an integer from 0 (Sunday) to 6 (Saturday) (got -1)',
    ]);
  });

  it('reports each later duplicate against the first slot of that day and time', () => {
    const slot = (day_of_week: number, time_of_day: string) => ({ day_of_week, time_of_day, enabled: true });
    expect(validateSchedule({ ...valid, posting_slots: [slot(6, '18:30'), slot(0, '18:30'), slot(6, '18:30'), slot(6, '18:30')] })).toEqual([
      'posting_slots[2]: duplicates posting_slots[0] (Saturday 18:30)',
      'posting_slots[3]: duplicates posting_slots[0] (Saturday 18:30)',
    ]);
  });

  it('rejects offsets, fractional or missing maxima, and missing slots', () => {
    expect(validateSchedule({ timezone: '+02:00', max_posts_per_day: 2.5, paused: true })).toEqual([
      'timezone: must be an IANA time zone name such as "Europe/Berlin" or "UTC" (got "+02:00")',
      'max_posts_per_day: must be an integer of at least 1 (got 2.5)',
      'posting_slots: must be an array (got nothing)',
    ]);
    expect(validateSchedule({ ...valid, timezone: undefined, max_posts_per_day: '3' })).toEqual([
      'timezone: must be an IANA time zone name such as "Europe/Berlin" or "UTC" (got nothing)',
      'max_posts_per_day: must be an integer of at least 1 (got "3")',
    ]);
  });

  it('rejects what is not an object', () => {
    expect(validateSchedule(null)).toEqual(['schedule: must be an object']);
    expect(validateSchedule([valid])).toEqual(['schedule: must be an object']);
  });
});
