import { nextSlot } from '@spa/slots';
import type { Target } from './model.js';
import type { ImageWeekDeps } from './ports.js';

const DAY_MS = 86_400_000;
/** At most this many cards per account and run. */
export const MAX_ITEMS_PER_ACCOUNT = 50;

/**
 * The account's free slots within `cutoffDays`, earliest first, with the rules publishing uses (libs/slots
 * nextSlot: enabled slots of its posting schedule, not held by an upcoming post, within max_posts_per_day).
 * `alsoTaken` are slots held by this run's other items.
 */
export async function freeSlots(
  deps: Pick<ImageWeekDeps, 'accounts' | 'posts'>,
  workspaceId: number,
  target: Target,
  cutoffDays: number,
  now: Date,
  limit = MAX_ITEMS_PER_ACCOUNT,
  alsoTaken: readonly Date[] = [],
): Promise<Date[]> {
  const schedule = await deps.accounts.postingSchedule(workspaceId, target.socialAccountId);
  if (!schedule) return [];
  const held = await deps.posts.scheduledTimes(workspaceId, target.socialAccountId, new Date(now.getTime() - DAY_MS), new Date(now.getTime() + (cutoffDays + 2) * DAY_MS));
  const taken = [...held, ...alsoTaken];
  const out: Date[] = [];
  while (out.length < limit) {
    const at = nextSlot(schedule, { after: now, taken, horizonDays: cutoffDays });
    if (!at) break;
    out.push(at);
    taken.push(at);
  }
  return out;
}
