import { describe, expect, it } from 'vitest';
import { autoDisableReason } from './auto-disable.js';
import { MAX_ATTEMPTS, nextAttemptAt } from './schedule.js';

describe('retry schedule', () => {
  it('gives 7 attempts at offsets 0, 10, 110, 1010, 4610, 11810, 22610 s', () => {
    const start = new Date('2026-01-01T00:00:00.000Z');
    const offsets = [0];
    let at = start;
    for (let n = 1; ; n++) {
      const next = nextAttemptAt(n, at);
      if (!next) break;
      offsets.push((next.getTime() - start.getTime()) / 1000);
      at = next;
    }
    expect(MAX_ATTEMPTS).toBe(7);
    expect(offsets).toEqual([0, 10, 110, 1010, 4610, 11810, 22610]);
  });

  it('allows no retry past a manual redelivery (one more attempt only)', () => {
    expect(nextAttemptAt(8, new Date(0), 8)).toBeNull();
  });
});

describe('auto-disable rule', () => {
  const failed = (n: number) => Array.from({ length: n }, () => 'failed' as const);
  it('disables on the 10th consecutive failed event, not the 9th', () => {
    expect(autoDisableReason(failed(9))).toBeUndefined();
    expect(autoDisableReason(failed(10))).toMatch(/10 consecutive failed events/);
  });
  it('a success in the run resets the count', () => {
    expect(autoDisableReason([...failed(9), 'succeeded', ...failed(5)])).toBeUndefined();
  });
});
