import type { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import type { PromiseClient } from '@spa/grpc';
import type { Logger } from '@spa/logger';
import type { Connection } from '@spa/mongo';
import { DailyQuota } from './daily-quota.js';
import { AccountsWorkspacePlans } from './data/accounts-plans.js';
import { MongoQuotaClaims } from './data/mongo-claims.js';
import type { DailyLimits } from './limits.js';

/** The process's daily quota: claims in the generation database, plans from accounts (call before syncIndexes). */
export function createDailyQuota(opts: { connection: Connection; accounts: Pick<PromiseClient<AccountsServiceClient>, 'getSubscription'>; limits: DailyLimits; logger: Logger }): DailyQuota {
  return new DailyQuota({
    store: new MongoQuotaClaims(opts.connection),
    plans: new AccountsWorkspacePlans(opts.accounts),
    limits: opts.limits,
    clock: { now: () => new Date() },
    onBackgroundError: (err) => opts.logger.warn({ err }, 'purging old quota claims failed'),
  });
}
