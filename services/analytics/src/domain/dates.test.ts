import { describe, expect, it } from 'vitest';
import { comparisonRange, dayShares, localDay, monthsOf, resolveRange, weekdayHour } from './dates.js';

describe('ranges and the comparison window', () => {
  it('defaults to the last 30 days ending today, compared with the 30 before', () => {
    const r = resolveRange(undefined, undefined, '2026-03-15');
    expect(r).toEqual({ start: '2026-02-14', end: '2026-03-15' });
    expect(comparisonRange(r)).toEqual({ start: '2026-01-15', end: '2026-02-13' });
  });

  it('counts calendar days across month ends and leap years', () => {
    expect(comparisonRange({ start: '2026-03-01', end: '2026-03-31' })).toEqual({ start: '2026-01-29', end: '2026-02-28' });
    expect(comparisonRange({ start: '2024-03-01', end: '2024-03-31' })).toEqual({ start: '2024-01-30', end: '2024-02-29' });
    expect(comparisonRange({ start: '2027-01-01', end: '2027-01-01' })).toEqual({ start: '2026-12-31', end: '2026-12-31' });
  });

  it('keeps whole days across DST changes (a 23- and a 25-hour day count once each)', () => {
    // Europe/Berlin springs forward on 2026-03-29 and falls back on 2026-10-25.
    expect(comparisonRange({ start: '2026-03-29', end: '2026-04-04' })).toEqual({ start: '2026-03-22', end: '2026-03-28' });
    expect(comparisonRange({ start: '2026-10-25', end: '2026-10-31' })).toEqual({ start: '2026-10-18', end: '2026-10-24' });
    const spring = dayShares(new Date('2026-03-28T23:00:00Z'), new Date('2026-03-29T22:00:00Z'), 'Europe/Berlin');
    expect(spring).toEqual([{ day: '2026-03-29', share: 1 }]); // the whole 23-hour local day
    const fall = dayShares(new Date('2026-10-24T22:00:00Z'), new Date('2026-10-25T23:00:00Z'), 'Europe/Berlin');
    expect(fall).toEqual([{ day: '2026-10-25', share: 1 }]); // the whole 25-hour local day
  });

  it('names the parameter of a bad range', () => {
    const details = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return (err as { details: string[] }).details.join(' | ');
      }
      return '';
    };
    expect(details(() => resolveRange('2026-02-30', undefined, '2026-03-01'))).toContain('start_date');
    expect(details(() => resolveRange(undefined, '26-01-01', '2026-03-01'))).toContain('end_date');
    expect(details(() => resolveRange('2026-03-10', '2026-03-01', '2026-03-31'))).toContain('end_date');
    expect(details(() => resolveRange('2025-01-01', '2026-01-02', '2026-03-31'))).toContain('366');
    expect(resolveRange('2025-01-01', '2026-01-01', '2026-03-31')).toEqual({ start: '2025-01-01', end: '2026-01-01' }); // 366 days is allowed
  });

  it('places instants on the local day, weekday and hour of the zone', () => {
    expect(localDay(new Date('2026-01-01T03:00:00Z'), 'America/New_York')).toBe('2025-12-31');
    expect(weekdayHour(new Date('2026-11-22T10:30:00Z'), 'Asia/Tokyo')).toEqual({ dayOfWeek: 0, hour: 19 }); // a Sunday
    expect(monthsOf({ start: '2025-12-20', end: '2026-02-02' })).toEqual(['2025-12', '2026-01', '2026-02']);
  });
});
