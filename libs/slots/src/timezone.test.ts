import { describe, expect, it } from 'vitest';
import { isValidTimezone } from './index.js';

describe('isValidTimezone', () => {
  it.each([
    'America/New_York',
    'Europe/Berlin',
    'Asia/Tokyo',
    'UTC',
    'Etc/UTC',
    'America/Argentina/Buenos_Aires',
    'America/Port-au-Prince',
    'US/Eastern', // an IANA backward-compatible link
    'Etc/GMT+5', // IANA (POSIX sign: UTC-5)
    'america/new_york', // ICU matches names case-insensitively
  ])('accepts %j', (zone) => {
    expect(isValidTimezone(zone)).toBe(true);
  });

  it.each([
    '+02:00', // an offset, which luxon/Intl would accept
    '-05:00',
    'UTC+2',
    'EST', // luxon accepts it (fixed UTC-5, a link to America/Panama): rejected as an abbreviation
    'MST',
    'EST5EDT',
    'CET',
    'GMT',
    'Japan',
    'utc',
    'Z',
    '',
    ' Europe/Berlin',
    'Europe/Berlin ',
    'Foo/Bar',
    'Mars/Olympus_Mons',
    'local',
    'system',
  ])('rejects %j', (zone) => {
    expect(isValidTimezone(zone)).toBe(false);
  });

  it('rejects values that are not strings', () => {
    expect(isValidTimezone(undefined as unknown as string)).toBe(false);
    expect(isValidTimezone(5 as unknown as string)).toBe(false);
  });
});
