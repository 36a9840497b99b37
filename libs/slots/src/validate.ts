import { describeValue, timeOfDayProblem } from './time-of-day.js';
import { isValidTimezone } from './timezone.js';
import type { PostingSchedule } from './types.js';

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The problems of a posting schedule, each naming its field (`timezone`, `max_posts_per_day`, `paused`,
 * `posting_slots[2].time_of_day`, …); empty when the schedule is valid. Slot `id` and `source` are not checked.
 * Two slots on the same day and time are a problem whether they are enabled or not.
 */
export function validateSchedule(input: unknown): string[] {
  if (!isObject(input)) return ['schedule: must be an object'];
  const problems: string[] = [];
  const { timezone, max_posts_per_day: max, paused, posting_slots: slots } = input;

  if (typeof timezone !== 'string' || !isValidTimezone(timezone)) {
    problems.push(`timezone: must be an IANA time zone name such as "Europe/Berlin" or "UTC" (got ${describeValue(timezone)})`);
  }
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1) {
    problems.push(`max_posts_per_day: must be an integer of at least 1 (got ${describeValue(max)})`);
  }
  if (typeof paused !== 'boolean') problems.push(`paused: must be true or false (got ${describeValue(paused)})`);
  if (!Array.isArray(slots)) {
    problems.push(`posting_slots: must be an array (got ${describeValue(slots)})`);
    return problems;
  }

  const firstIndexOf = new Map<string, number>();
  slots.forEach((slot: unknown, i) => {
    const at = `posting_slots[${i}]`;
    if (!isObject(slot)) {
      problems.push(`${at}: must be an object`);
      return;
    }
    const day = slot.day_of_week;
    const dayOk = typeof day === 'number' && Number.isInteger(day) && day >= 0 && day <= 6;
    if (!dayOk) problems.push(`${at}.day_of_week: must be an integer from 0 (Sunday) to 6 (Saturday) (got ${describeValue(day)})`);
    const timeProblem = timeOfDayProblem(slot.time_of_day);
    if (timeProblem) problems.push(`${at}.time_of_day: ${timeProblem}`);
    if (typeof slot.enabled !== 'boolean') problems.push(`${at}.enabled: must be true or false (got ${describeValue(slot.enabled)})`);
    if (dayOk && !timeProblem) {
      const key = `${DAY_NAMES[day]} ${String(slot.time_of_day)}`;
      const first = firstIndexOf.get(key);
      if (first === undefined) firstIndexOf.set(key, i);
      else problems.push(`${at}: duplicates posting_slots[${first}] (${key})`);
    }
  });
  return problems;
}

/** Thrown by nextSlot and slotsBetween when given a schedule that validateSchedule rejects. */
export class InvalidScheduleError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid posting schedule: ${problems.join('; ')}`);
    this.name = 'InvalidScheduleError';
  }
}

export function assertValidSchedule(schedule: PostingSchedule): void {
  const problems = validateSchedule(schedule);
  if (problems.length) throw new InvalidScheduleError(problems);
}
