import type { StoredPreferences } from '../domain/model.js';
import type { PreferencesRepository } from '../domain/ports.js';
import { defined } from './defined.js';
import type { AccountsModels, PreferencesState } from './models.js';
import { RevisionLog } from './revisions.js';

const toStoredPreferences = (d: PreferencesState): StoredPreferences => ({
  tone: d.tone,
  includeEmoji: d.include_emoji,
  structure: d.structure,
  customRules: d.custom_rules,
  timezone: d.timezone,
  usePostMetricsForAi: d.use_post_metrics_for_ai,
  theme: d.theme,
  aiModel: d.ai_model,
  emailNotifications: {
    postFailure: d.email_notifications?.post_failure,
    weeklyBriefing: d.email_notifications?.weekly_briefing,
    productTips: d.email_notifications?.product_tips,
    reEngagement: d.email_notifications?.re_engagement,
  },
  linkShorteningEnabled: d.link_shortening_enabled,
  dubApiKeySealed: d.dub_api_key_sealed,
  updatedAt: d.updated_at,
});

const preferencesState = (p: StoredPreferences): PreferencesState => {
  const n = p.emailNotifications ?? {};
  return {
    ...defined({
      tone: p.tone,
      include_emoji: p.includeEmoji,
      structure: p.structure,
      custom_rules: p.customRules,
      timezone: p.timezone,
      use_post_metrics_for_ai: p.usePostMetricsForAi,
      theme: p.theme,
      ai_model: p.aiModel,
      link_shortening_enabled: p.linkShorteningEnabled,
      dub_api_key_sealed: p.dubApiKeySealed,
    }),
    email_notifications: defined({ post_failure: n.postFailure, weekly_briefing: n.weeklyBriefing, product_tips: n.productTips, re_engagement: n.reEngagement }),
    updated_at: p.updatedAt,
  };
};

/** A workspace's preferences (only the fields it set), one revision per change. */
export class MongoPreferences implements PreferencesRepository {
  private readonly states: RevisionLog<PreferencesState>;

  constructor(models: AccountsModels) {
    this.states = new RevisionLog(models.PreferencesRevision, (key) => `The preferences of workspace ${key}`);
  }

  async get(workspaceId: number): Promise<StoredPreferences | null> {
    const state = await this.states.latest(workspaceId, String(workspaceId));
    return state ? toStoredPreferences(state) : null;
  }

  async change(workspaceId: number, change: (current: StoredPreferences | null) => StoredPreferences): Promise<void> {
    await this.states.change(workspaceId, String(workspaceId), (current) => preferencesState(change(current && toStoredPreferences(current))));
  }
}
