import type { QuotaUsage } from '../quota/daily-quota.js';
import type { AiModel, Subscription } from './model.js';

export interface Clock {
  now(): Date;
}

/** The AI models this deployment offers (the provider catalog). */
export interface ModelList {
  list(): AiModel[];
  has(id: string): boolean;
  defaultModel(): AiModel;
}

/** Where subscriptions live (the accounts service). */
export interface Subscriptions {
  getSubscription(workspaceId: number): Promise<Subscription>;
}

/** Today's generation count of a workspace (the daily quota). */
export interface QuotaReader {
  usage(workspaceId: number): Promise<QuotaUsage>;
}

export interface SettingsDeps {
  subscriptions: Subscriptions;
  models: ModelList;
  quota: QuotaReader;
  clock: Clock;
}
