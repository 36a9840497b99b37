import type { QuotaUsage } from '../quota/daily-quota.js';
import type { AiModel, PreferencesPatch, StoredPreferences, Subscription } from './model.js';

export interface Clock {
  now(): Date;
}

/** The AI models this deployment offers (the provider catalog). */
export interface ModelList {
  list(): AiModel[];
  has(id: string): boolean;
  defaultModel(): AiModel;
}

/** Where preferences and subscriptions live (the accounts service). */
export interface AccountsSettings {
  getPreferences(workspaceId: number): Promise<StoredPreferences>;
  /** Merges the patch; rejects bad fields with INVALID_PARAMETERS and writes nothing then. */
  updatePreferences(workspaceId: number, patch: PreferencesPatch): Promise<StoredPreferences>;
  getSubscription(workspaceId: number): Promise<Subscription>;
}

/** Today's generation count of a workspace (the daily quota). */
export interface QuotaReader {
  usage(workspaceId: number): Promise<QuotaUsage>;
}

export interface SettingsDeps {
  accounts: AccountsSettings;
  models: ModelList;
  quota: QuotaReader;
  clock: Clock;
}
