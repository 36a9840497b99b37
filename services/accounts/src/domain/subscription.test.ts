import { describe, expect, it } from 'vitest';
import { addMonthsUtc, nextMonthlyEnd } from './subscription.js';

const at = (iso: string) => new Date(iso);

describe('monthly billing periods', () => {
  it('adds calendar months in UTC, clamping to the last day of a shorter month', () => {
    expect(addMonthsUtc(at('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonthsUtc(at('2028-01-31T10:00:00Z'), 1).toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect(addMonthsUtc(at('2026-01-31T10:00:00Z'), 2).toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(addMonthsUtc(at('2026-11-15T23:59:59.500Z'), 3).toISOString()).toBe('2027-02-15T23:59:59.500Z');
  });

  it('ends the current period at the first monthly anniversary of the start after now, counted from the start (no drift)', () => {
    const start = at('2026-01-31T10:00:00Z');
    expect(nextMonthlyEnd(start, at('2026-01-31T10:00:00Z')).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(nextMonthlyEnd(start, at('2026-02-15T00:00:00Z')).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    // Exactly at an end, the next period has begun.
    expect(nextMonthlyEnd(start, at('2026-02-28T10:00:00Z')).toISOString()).toBe('2026-03-31T10:00:00.000Z');
    // Earlier in its month than the start day: this month's anniversary is still ahead.
    expect(nextMonthlyEnd(start, at('2026-04-02T00:00:00Z')).toISOString()).toBe('2026-04-30T10:00:00.000Z');
    expect(nextMonthlyEnd(start, at('2029-07-31T09:59:59Z')).toISOString()).toBe('2029-07-31T10:00:00.000Z');
    expect(nextMonthlyEnd(start, at('2029-07-31T10:00:01Z')).toISOString()).toBe('2029-08-31T10:00:00.000Z');
  });

  it('gives a period of at least one month for a subscription that starts now', () => {
    expect(nextMonthlyEnd(at('2026-05-10T08:00:00Z'), at('2026-05-10T08:00:00Z')).toISOString()).toBe('2026-06-10T08:00:00.000Z');
  });
});
