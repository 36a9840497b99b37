import { describe, expect, it } from 'vitest';
import { firstRunAt, localDateOf, nextRunAt } from './schedule.js';

const at = (iso: string) => new Date(iso);

describe('nextRunAt', () => {
  it('is the next given weekday at the local time, strictly after `after`', () => {
    // 2026-03-02 is a Monday. Monday 09:00 in Berlin (UTC+1 in winter) = 08:00Z.
    expect(nextRunAt(1, '09:00', 'Europe/Berlin', at('2026-03-02T07:00:00Z')).toISOString()).toBe('2026-03-02T08:00:00.000Z');
    // Exactly at the due time: the next one is a week later.
    expect(nextRunAt(1, '09:00', 'Europe/Berlin', at('2026-03-02T08:00:00Z')).toISOString()).toBe('2026-03-09T08:00:00.000Z');
    // Sunday = 0.
    expect(nextRunAt(0, '23:30', 'UTC', at('2026-03-02T08:00:00Z')).toISOString()).toBe('2026-03-08T23:30:00.000Z');
  });

  it('follows the zone across a DST change (Berlin: UTC+1 -> UTC+2 on 2026-03-29)', () => {
    expect(nextRunAt(1, '09:00', 'Europe/Berlin', at('2026-03-23T08:00:00Z')).toISOString()).toBe('2026-03-30T07:00:00.000Z');
  });

  it('runs a time inside a spring-forward gap at the first instant after the gap', () => {
    // New York, Sunday 2026-03-08: 02:00 -> 03:00 EDT (07:00Z). 02:30 does not exist that day.
    expect(nextRunAt(0, '02:30', 'America/New_York', at('2026-03-07T00:00:00Z')).toISOString()).toBe('2026-03-08T07:00:00.000Z');
  });

  it('runs an ambiguous fall-back time once, at its first occurrence', () => {
    // New York, Sunday 2026-11-01: 01:30 happens at 05:30Z (EDT) and 06:30Z (EST).
    const first = nextRunAt(0, '01:30', 'America/New_York', at('2026-10-31T00:00:00Z'));
    expect(first.toISOString()).toBe('2026-11-01T05:30:00.000Z');
    // After the first occurrence the next run is a week later, not the second 01:30.
    expect(nextRunAt(0, '01:30', 'America/New_York', first).toISOString()).toBe('2026-11-08T06:30:00.000Z');
  });

  it('uses the local date of the zone', () => {
    expect(localDateOf(at('2026-03-02T23:30:00Z'), 'Asia/Tokyo')).toBe('2026-03-03');
    expect(localDateOf(at('2026-03-02T23:30:00Z'), 'America/Los_Angeles')).toBe('2026-03-02');
  });

  it('lets a plan created during its due minute run in that minute', () => {
    expect(firstRunAt(1, '09:00', 'UTC', at('2026-03-02T09:00:40Z')).toISOString()).toBe('2026-03-02T09:00:00.000Z');
    expect(firstRunAt(1, '09:00', 'UTC', at('2026-03-02T09:01:00Z')).toISOString()).toBe('2026-03-09T09:00:00.000Z');
  });
});
