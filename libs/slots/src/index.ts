export { DEFAULT_HORIZON_DAYS, nextSlot, type NextSlotOptions } from './next-slot.js';
export { slotsBetween } from './slots-between.js';
export { parseTimeOfDay } from './time-of-day.js';
export { isValidTimezone } from './timezone.js';
export type { PostingSchedule, PostingSlot, TimeOfDay } from './types.js';
export { InvalidScheduleError, validateSchedule } from './validate.js';
