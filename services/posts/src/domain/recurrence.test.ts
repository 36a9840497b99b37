import { AppError } from '@spa/errors';
import { describe, expect, it } from 'vitest';
import { nextVariation } from './recycle-post.js';
import { assertRecurringAllowed, jitterWindowMs, recurrenceEarliest, recurrenceProblems } from './recurrence.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

describe('recurrence', () => {
  it('puts the earliest time of a recurrence the interval after the posting, jittered within ±25% of it, at most ±12 hours', () => {
    const posted = new Date('2026-03-01T10:00:00Z');
    expect(recurrenceEarliest(posted, 7, false, () => 0.99).toISOString()).toBe('2026-03-08T10:00:00.000Z');
    expect(jitterWindowMs(1)).toBe(6 * HOUR);
    expect(jitterWindowMs(30)).toBe(12 * HOUR);
    expect(recurrenceEarliest(posted, 1, true, () => 0).getTime()).toBe(posted.getTime() + DAY - 6 * HOUR);
    expect(recurrenceEarliest(posted, 30, true, () => 0.999_999).getTime()).toBeCloseTo(posted.getTime() + 30 * DAY + 12 * HOUR, -3);
    expect(recurrenceEarliest(posted, 30, true, () => 0.5).getTime()).toBe(posted.getTime() + 30 * DAY);
  });

  it('bounds the interval and refuses blank variations', () => {
    expect(recurrenceProblems({ recurrenceIntervalDays: 1, evergreenVariations: ['a'] })).toEqual([]);
    expect(recurrenceProblems({ recurrenceIntervalDays: 365 })).toEqual([]);
    for (const days of [0, 366, 2.5, -1]) expect(recurrenceProblems({ recurrenceIntervalDays: days })[0]).toMatch(/^recurrence_interval_days/);
    expect(recurrenceProblems({ evergreenVariations: ['ok', ' '] })).toEqual(['evergreen_variations[1] is empty']);
  });

  it('allows recurring posts on Pro and Team only, naming what a Starter request turns on', () => {
    const on = { evergreen: true, recurrenceJitterEnabled: false, evergreenVariations: [] };
    expect(() => assertRecurringAllowed({ reviewRequired: false, tier: 'pro' }, [{ prefix: '', fields: on }])).not.toThrow();
    expect(() => assertRecurringAllowed({ reviewRequired: false, tier: 'team' }, [{ prefix: '', fields: on }])).not.toThrow();
    expect(() => assertRecurringAllowed({ reviewRequired: false, tier: 'starter' }, [{ prefix: '', fields: { evergreen: false, recurrenceJitterEnabled: false } }])).not.toThrow();
    try {
      assertRecurringAllowed({ reviewRequired: false, tier: 'starter' }, [
        { prefix: 'posts[0].', fields: {} },
        { prefix: 'posts[1].', fields: { ...on, recurrenceIntervalDays: 3 } },
      ]);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('TIER_UPGRADE_REQUIRED');
      expect((err as AppError).details).toEqual(['posts[1].evergreen', 'posts[1].recurrence_interval_days']);
    }
  });

  it('rotates through the variations in order, skipping any among the last versions, and gives up when all are', () => {
    const v = ['A', 'B', 'C', 'D'];
    expect(nextVariation(v, 1, ['O'])).toBe('A');
    expect(nextVariation(v, 2, ['O', 'A'])).toBe('B');
    expect(nextVariation(v, 5, ['B', 'C', 'D'])).toBe('A');
    expect(nextVariation(v, 5, ['B', ' A ', 'D'])).toBe('C');
    expect(nextVariation(['A'], 2, ['O', 'A'])).toBeUndefined();
    expect(nextVariation([], 1, ['O'])).toBeUndefined();
  });
});
