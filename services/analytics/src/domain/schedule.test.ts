import { describe, expect, it } from 'vitest';
import { fetchTimes, parseOffsets } from './schedule.js';

describe('fetch schedule', () => {
  it('parses offsets and refuses bad or unordered ones', () => {
    expect(parseOffsets('1h,6h,24h,72h,7d')).toEqual([3_600_000, 21_600_000, 86_400_000, 259_200_000, 604_800_000]);
    expect(parseOffsets('2s, 6s ,15s')).toEqual([2_000, 6_000, 15_000]);
    expect(() => parseOffsets('1h,30m')).toThrow(/ascending/);
    expect(() => parseOffsets('1w')).toThrow(/duration/);
  });

  it('spreads a wave with a stable jitter bounded by the fraction and the cap', () => {
    const postedAt = new Date('2026-11-23T10:00:00Z');
    const o = { offsetsMs: [3_600_000, 86_400_000], jitterFraction: 0.1, maxJitterMs: 900_000 };
    const times = Array.from({ length: 200 }, (_, i) => fetchTimes(i + 1, postedAt, o));
    for (const [first, second] of times) {
      const j1 = first!.dueAt.getTime() - postedAt.getTime() - 3_600_000;
      const j2 = second!.dueAt.getTime() - postedAt.getTime() - 86_400_000;
      expect(j1).toBeGreaterThanOrEqual(0);
      expect(j1).toBeLessThan(360_000); // 10 % of 1 h
      expect(j2).toBeLessThan(900_000); // capped at 15 min
    }
    expect(new Set(times.map(([f]) => f!.dueAt.getTime())).size).toBeGreaterThan(150); // not one burst
    expect(fetchTimes(7, postedAt, o)).toEqual(fetchTimes(7, postedAt, o)); // stable across replicas
  });
});
