import { invalidParameters, notFound } from '@spa/errors';
import { validateSchedule } from '@spa/slots';
import type { PostingSchedule } from './model.js';
import type { AccountsDeps } from './ports.js';

/** Every new account starts with this schedule: UTC, three slots a day, at most three posts a day. */
const DEFAULT_TIMES = ['09:00', '13:00', '17:00'];
const DEFAULT_MAX_POSTS_PER_DAY = 3;

export async function createDefaultSchedule(deps: AccountsDeps, workspaceId: number, socialAccountId: number): Promise<PostingSchedule> {
  const days = [0, 1, 2, 3, 4, 5, 6];
  const slotIds = await deps.ids.reserve('posting_slots', days.length * DEFAULT_TIMES.length);
  const schedule: PostingSchedule = {
    id: await deps.ids.next('posting_schedules'),
    workspaceId,
    socialAccountId,
    timezone: 'UTC',
    maxPostsPerDay: DEFAULT_MAX_POSTS_PER_DAY,
    paused: false,
    postingSlots: days.flatMap((day, d) =>
      DEFAULT_TIMES.map((time, t) => ({ id: slotIds[d * DEFAULT_TIMES.length + t] as number, dayOfWeek: day, timeOfDay: time, enabled: true, source: 'default' })),
    ),
    updatedAt: deps.clock.now(),
  };
  await deps.schedules.insert(schedule);
  return schedule;
}

export function listPostingSchedules(deps: AccountsDeps, workspaceId: number): Promise<PostingSchedule[]> {
  return deps.schedules.list(workspaceId);
}

export async function getPostingSchedule(deps: AccountsDeps, workspaceId: number, socialAccountId: number): Promise<PostingSchedule> {
  const schedule = await deps.schedules.find(workspaceId, { socialAccountId });
  if (!schedule) throw notFound(`Posting schedule of social account ${socialAccountId}`);
  return schedule;
}

export interface SchedulePatch {
  timezone?: string | undefined;
  maxPostsPerDay?: number | undefined;
  paused?: boolean | undefined;
  /** Replaces the slots (each becomes a manual slot with a new id). */
  postingSlots?: Array<{ dayOfWeek: number; timeOfDay: string; enabled?: boolean | undefined }> | undefined;
}

/**
 * Updates a schedule; the result is validated as a whole (IANA time zone, slot times, no duplicate slots).
 * Racing updates are applied one after the other, each to the result of the previous one: none is lost.
 */
export async function updatePostingSchedule(deps: AccountsDeps, workspaceId: number, scheduleId: number, patch: SchedulePatch): Promise<PostingSchedule> {
  const slotIds = patch.postingSlots?.length ? await deps.ids.reserve('posting_slots', patch.postingSlots.length) : [];
  const updated = await deps.schedules.change(workspaceId, scheduleId, (current) => {
    const next: PostingSchedule = {
      ...current,
      timezone: patch.timezone ?? current.timezone,
      maxPostsPerDay: patch.maxPostsPerDay ?? current.maxPostsPerDay,
      paused: patch.paused ?? current.paused,
      postingSlots: patch.postingSlots
        ? patch.postingSlots.map((s, i) => ({ id: slotIds[i] as number, dayOfWeek: s.dayOfWeek, timeOfDay: s.timeOfDay, enabled: s.enabled ?? true, source: 'manual' }))
        : current.postingSlots,
      updatedAt: deps.clock.now(),
    };
    const problems = validateSchedule({
      timezone: next.timezone,
      max_posts_per_day: next.maxPostsPerDay,
      paused: next.paused,
      posting_slots: next.postingSlots.map((s) => ({ id: s.id, day_of_week: s.dayOfWeek, time_of_day: s.timeOfDay, enabled: s.enabled, source: s.source })),
    });
    if (problems.length) throw invalidParameters(problems);
    return next;
  });
  if (!updated) throw notFound(`Posting schedule ${scheduleId}`);
  return updated;
}
