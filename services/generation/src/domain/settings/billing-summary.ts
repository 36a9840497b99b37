import type { BillingSummary } from './model.js';
import type { SettingsDeps } from './ports.js';

const DAY_MS = 86_400_000;

/** Whole days from `now` until `end`, rounded up (a renewal later today is 1 day away); 0 once it has passed. */
export function daysUntil(now: Date, end: Date | undefined): number {
  if (!end) return 0;
  return Math.max(0, Math.ceil((end.getTime() - now.getTime()) / DAY_MS));
}

/** The workspace's subscription (accounts) with today's AI generation quota (this service's count). */
export async function getBillingSummary(deps: SettingsDeps, workspaceId: number): Promise<BillingSummary> {
  const [subscription, usage] = await Promise.all([deps.subscriptions.getSubscription(workspaceId), deps.quota.usage(workspaceId)]);
  return {
    subscription: { ...subscription, daysUntilRenewal: daysUntil(deps.clock.now(), subscription.currentPeriodEnd) },
    tier: subscription.tier,
    quota: { tier: usage.tier, dailyLimit: usage.dailyLimit, usedToday: usage.used, remainingToday: usage.remaining, resetsAt: usage.resetsAt },
    maxScheduleDays: subscription.maxScheduleDays,
  };
}
