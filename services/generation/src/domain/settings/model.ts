import type { Tier } from '@spa/vocabulary';
import type { AiModel } from '../models/catalog.js';

export type { AiModel };

export interface EmailNotifications {
  postFailure: boolean;
  weeklyBriefing: boolean;
  productTips: boolean;
  reEngagement: boolean;
}

/** Preferences as accounts stores them (`aiModel` empty: none chosen). */
export interface StoredPreferences {
  tone: string;
  includeEmoji: boolean;
  structure: string;
  customRules: string;
  timezone: string;
  usePostMetricsForAi: boolean;
  theme: string;
  aiModel: string;
  emailNotifications: EmailNotifications;
}

/** Preferences as the API shows them: the effective model and the models to choose from. */
export interface Preferences extends StoredPreferences {
  availableAiModels: AiModel[];
}

/** A merge: only the fields present change. */
export type PreferencesPatch = Partial<Omit<StoredPreferences, 'emailNotifications'>> & {
  emailNotifications?: Partial<EmailNotifications>;
};

export interface Subscription {
  id: number;
  tier: Tier;
  status: string;
  /** Undefined when accounts knows no period end. */
  currentPeriodEnd: Date | undefined;
  cancelAtPeriodEnd: boolean;
  maxScheduleDays: number;
}

export interface BillingSummary {
  subscription: Subscription & { daysUntilRenewal: number };
  tier: Tier;
  quota: { tier: Tier; dailyLimit: number; usedToday: number; remainingToday: number; resetsAt: string };
  maxScheduleDays: number;
}
