import type { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { AppError } from '@spa/errors';
import type { PromiseClient } from '@spa/grpc';
import { TIERS, type Tier } from '@spa/vocabulary';
import type { Subscription } from '../../domain/settings/model.js';
import type { Subscriptions } from '../../domain/settings/ports.js';

/** Subscriptions as the accounts service keeps them. */
export class GrpcSubscriptions implements Subscriptions {
  constructor(private readonly accounts: Pick<PromiseClient<AccountsServiceClient>, 'getSubscription'>) {}

  async getSubscription(workspaceId: number): Promise<Subscription> {
    const { subscription: s } = await this.accounts.getSubscription({ workspaceId });
    if (!s) throw new AppError('INTERNAL_ERROR', 'accounts answered without a subscription');
    const end = s.currentPeriodEnd ? new Date(s.currentPeriodEnd) : undefined;
    return {
      id: s.id,
      tier: TIERS.includes(s.tier as Tier) ? (s.tier as Tier) : 'free',
      status: s.status,
      currentPeriodEnd: end && !Number.isNaN(end.getTime()) ? end : undefined,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      maxScheduleDays: s.maxScheduleDays,
    };
  }
}
