import { describe, expect, it } from 'vitest';
import { parseTimeOfDay } from './index.js';

const messageOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(Error);
    return (e as Error).message;
  }
  throw new Error('expected a throw');
};

describe('parseTimeOfDay', () => {
  it.each([
    ['00:00', { hour: 0, minute: 0 }],
    ['09:05', { hour: 9, minute: 5 }],
    ['12:30', { hour: 12, minute: 30 }],
    ['23:59', { hour: 23, minute: 59 }],
  ])('parses %j', (text, expected) => {
    expect(parseTimeOfDay(text)).toEqual(expected);
  });

  it.each(['24:00', '9:00', '09:60', '0900', '09:00:00', ' 09:00', '09:00 ', '', 'ab:cd', '-1:00'])('rejects %j with a plain Error naming the format', (text) => {
    expect(messageOf(() => parseTimeOfDay(text))).toBe(`time_of_day must be "HH:MM", 24-hour, 00:00 to 23:59 (got ${JSON.stringify(text)})`);
  });

  it('rejects values that are not strings', () => {
    expect(messageOf(() => parseTimeOfDay(930 as unknown as string))).toBe('time_of_day must be "HH:MM", 24-hour, 00:00 to 23:59 (got 930)');
    expect(messageOf(() => parseTimeOfDay(undefined as unknown as string))).toBe('time_of_day must be "HH:MM", 24-hour, 00:00 to 23:59 (got nothing)');
  });
});
