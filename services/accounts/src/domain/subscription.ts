import { MAX_SCHEDULE_DAYS } from '@spa/vocabulary';
import type { Subscription } from './model.js';
import type { AccountsDeps } from './ports.js';
import { getPreferences } from './preferences.js';
import { getWorkspace } from './workspaces.js';

/** `start` plus whole calendar months in UTC; a day past the target month's end is clamped (Jan 31 + 1 month = Feb 28/29). */
export function addMonthsUtc(start: Date, months: number): Date {
  const year = start.getUTCFullYear();
  const month = start.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const result = new Date(start);
  result.setUTCFullYear(year, month, Math.min(start.getUTCDate(), lastDay));
  return result;
}

/** The first monthly anniversary of `start` strictly after `now` (each counted from `start`, so no drift). */
export function nextMonthlyEnd(start: Date, now: Date): Date {
  const elapsed = (now.getUTCFullYear() - start.getUTCFullYear()) * 12 + now.getUTCMonth() - start.getUTCMonth();
  // The anniversary `elapsed - 1` months on falls in the month before `now`, so counting up from `elapsed` finds the first one after it.
  let months = Math.max(1, elapsed);
  while (addMonthsUtc(start, months) <= now) months++;
  return addMonthsUtc(start, months);
}

/**
 * The workspace's subscription (its id is the workspace id: one subscription per workspace) and the
 * workspace time zone from its preferences. The period end is the stored one (set by billing, or an
 * operator with the admin CLI); without one, monthly periods run from the workspace's creation.
 */
export async function getSubscription(deps: AccountsDeps, workspaceId: number): Promise<{ subscription: Subscription; timezone: string }> {
  const workspace = await getWorkspace(deps, workspaceId);
  const { timezone } = await getPreferences(deps, workspaceId);
  return {
    subscription: {
      id: workspace.id,
      tier: workspace.tier,
      status: workspace.subscriptionStatus,
      currentPeriodEnd: workspace.currentPeriodEnd ?? nextMonthlyEnd(workspace.createdAt, deps.clock.now()),
      cancelAtPeriodEnd: workspace.cancelAtPeriodEnd,
      maxScheduleDays: MAX_SCHEDULE_DAYS[workspace.tier],
    },
    timezone,
  };
}
