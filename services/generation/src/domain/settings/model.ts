import type { Tier } from '@spa/vocabulary';
import type { AiModel } from '../models/catalog.js';

export type { AiModel };

/** The models offered and what a workspace's `ai_model` resolves to (GET /preferences shows both). */
export interface AiModelChoice {
  availableAiModels: AiModel[];
  /** The model generations use: the choice while offered, else the default model. */
  effectiveAiModel: string;
  /** `ai_model: …` when the choice is given but not offered; empty otherwise. */
  aiModelProblem: string;
}

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
