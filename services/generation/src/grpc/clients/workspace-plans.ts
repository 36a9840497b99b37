import type { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import type { PromiseClient } from '@spa/grpc';
import { TIERS, type Tier } from '@spa/vocabulary';
import type { WorkspacePlan, WorkspacePlans } from '../../domain/quota/ports.js';

/** Longest time a workspace's plan and zone are reused: a plan change or a new timezone counts within 5 s. */
export const MAX_PLAN_CACHE_MS = 5_000;

/**
 * A workspace's tier and timezone from accounts GetSubscription, reused for a few seconds so that a burst of
 * generations costs one call. Expired entries are dropped when the cache grows.
 */
export class AccountsWorkspacePlans implements WorkspacePlans {
  private readonly cache = new Map<number, { plan: WorkspacePlan; expiresAt: number }>();

  constructor(
    private readonly accounts: Pick<PromiseClient<AccountsServiceClient>, 'getSubscription'>,
    private readonly ttlMs = MAX_PLAN_CACHE_MS,
  ) {
    if (ttlMs < 0 || ttlMs > MAX_PLAN_CACHE_MS) throw new RangeError(`the plan cache TTL must be 0..${MAX_PLAN_CACHE_MS} ms`);
  }

  async planOf(workspaceId: number): Promise<WorkspacePlan> {
    const now = Date.now();
    const hit = this.cache.get(workspaceId);
    if (hit && hit.expiresAt > now) return hit.plan;
    const { subscription, timezone } = await this.accounts.getSubscription({ workspaceId });
    const tier = TIERS.includes(subscription?.tier as Tier) ? (subscription!.tier as Tier) : 'free';
    const plan: WorkspacePlan = { tier, timezone: timezone || 'UTC' };
    if (this.ttlMs > 0) {
      if (this.cache.size >= 10_000) for (const [id, entry] of this.cache) if (entry.expiresAt <= now) this.cache.delete(id);
      this.cache.set(workspaceId, { plan, expiresAt: now + this.ttlMs });
    }
    return plan;
  }
}
