import { nextSlot } from '@spa/slots';
import type { PostsDeps } from './ports.js';

/** How far ahead a free slot is looked for. */
export const SLOT_HORIZON_DAYS = 60;

export interface NextSlot {
  scheduleId: number;
  timezone: string;
  /** Null when the schedule is paused, has no enabled slot, or has no free slot within the horizon. */
  at: Date | null;
}

/**
 * The account's next enabled slot after `after` (default: now) that no upcoming post holds, within its daily maximum,
 * at most `horizonDays` (default and at most 60) days after `after`.
 */
export async function nextFreeSlot(deps: PostsDeps, workspaceId: number, socialAccountId: number, after?: Date, horizonDays = SLOT_HORIZON_DAYS): Promise<NextSlot> {
  const schedule = await deps.accounts.postingSchedule(workspaceId, socialAccountId);
  const now = after ?? deps.clock.now();
  const days = Math.min(horizonDays, SLOT_HORIZON_DAYS);
  const until = new Date(now.getTime() + (days + 1) * 86_400_000);
  const taken = await deps.store.scheduledTimes(workspaceId, socialAccountId, new Date(now.getTime() - 86_400_000), until);
  const at = nextSlot(
    {
      timezone: schedule.timezone,
      max_posts_per_day: schedule.maxPostsPerDay,
      paused: schedule.paused,
      posting_slots: schedule.postingSlots.map((s) => ({ id: s.id, day_of_week: s.dayOfWeek, time_of_day: s.timeOfDay, enabled: s.enabled, source: s.source })),
    },
    { after: now, taken, horizonDays: days },
  );
  // The slot search counts days in the schedule's zone; the horizon is exact.
  return { scheduleId: schedule.id, timezone: schedule.timezone, at: at && at.getTime() <= now.getTime() + days * 86_400_000 ? at : null };
}
