import type { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import type { PromiseClient, ServiceBinding } from '@spa/grpc';
import { settingsService } from '../grpc/settings-handlers.js';
import { GrpcAccountsSettings } from './data/accounts-settings.js';
import type { ModelList, QuotaReader } from './ports.js';

/** The SettingsService of the process: preferences and subscriptions from accounts, models from the catalog. */
export function createSettingsService(opts: {
  accounts: Pick<PromiseClient<AccountsServiceClient>, 'getPreferences' | 'updatePreferences' | 'getSubscription'>;
  models: ModelList;
  quota: QuotaReader;
}): ServiceBinding {
  return settingsService({ accounts: new GrpcAccountsSettings(opts.accounts), models: opts.models, quota: opts.quota, clock: { now: () => new Date() } });
}
