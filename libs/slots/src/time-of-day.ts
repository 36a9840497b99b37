import type { TimeOfDay } from './types.js';

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** A short rendering of a received value for problem messages: `"9:00"`, `7`, `null`, `nothing`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Why `value` is not an "HH:MM" time of day, or null when it is one. Shared by parseTimeOfDay and validateSchedule. */
export function timeOfDayProblem(value: unknown): string | null {
  return typeof value === 'string' && HH_MM.test(value) ? null : `must be "HH:MM", 24-hour, 00:00 to 23:59 (got ${describeValue(value)})`;
}

/** Parses a strict "HH:MM" 24-hour time ("09:05", "23:59"; not "9:05", "24:00" or "09:05:00"). Throws an Error otherwise. */
export function parseTimeOfDay(value: string): TimeOfDay {
  const problem = timeOfDayProblem(value);
  const match = problem === null ? HH_MM.exec(value) : null;
  if (!match) throw new Error(`time_of_day ${problem ?? 'is invalid'}`);
  return { hour: Number(match[1]), minute: Number(match[2]) };
}
