import { invalidParameters } from '@spa/errors';
import { IdAllocator, isDuplicateKeyError, type Connection } from '@spa/mongo';
import type { CustomRuleScope, Platform, Scope, SubscriptionStatus, Tier } from '@spa/vocabulary';
import { apiKeyLimitReached } from '../domain/api-keys.js';
import type {
  ApiKey, CustomRule, CustomRulePatch, PostingSchedule, Site, SocialAccount, StoredPreferences, User, Workspace,
} from '../domain/model.js';
import type { AccountsStore, WorkspacePatch } from '../domain/ports.js';
import { registerModels, type AccountsModels, type CustomRuleState, type PreferencesState } from './models.js';
import { RevisionLog } from './revisions.js';

interface WorkspaceDoc {
  _id: number; name: string; tier: string; subscription_status: string; review_required: boolean; owner_user_id: number; created_at: Date;
  current_period_end?: Date | null; cancel_at_period_end?: boolean | null;
}
interface ApiKeyDoc { _id: number; workspace_id: number; user_id: number; hash: string; scopes: string[]; created_at: Date; revoked_at?: Date | null }
interface SiteDoc { _id: number; workspace_id: number; name: string; url: string; cms: string; token_hash: string; created_at: Date; last_push_at?: Date | null; unmatched_pushes: number }
interface SocialAccountDoc { _id: number; workspace_id: number; platform: string; username: string; sandbox: boolean; disconnected: boolean; created_at: Date; sealed_credentials?: string | null }

interface ScheduleDoc {
  _id: number; workspace_id: number; social_account_id: number; timezone: string; max_posts_per_day: number; paused: boolean;
  posting_slots: Array<{ id: number; day_of_week: number; time_of_day: string; enabled: boolean; source: string }>; updated_at: Date;
}

const toSchedule = (d: ScheduleDoc): PostingSchedule => ({
  id: d._id,
  workspaceId: d.workspace_id,
  socialAccountId: d.social_account_id,
  timezone: d.timezone,
  maxPostsPerDay: d.max_posts_per_day,
  paused: d.paused,
  postingSlots: d.posting_slots.map((s) => ({ id: s.id, dayOfWeek: s.day_of_week, timeOfDay: s.time_of_day, enabled: s.enabled, source: s.source })),
  updatedAt: d.updated_at,
});

const scheduleDoc = (s: PostingSchedule): ScheduleDoc => ({
  _id: s.id,
  workspace_id: s.workspaceId,
  social_account_id: s.socialAccountId,
  timezone: s.timezone,
  max_posts_per_day: s.maxPostsPerDay,
  paused: s.paused,
  posting_slots: s.postingSlots.map((p) => ({ id: p.id, day_of_week: p.dayOfWeek, time_of_day: p.timeOfDay, enabled: p.enabled, source: p.source })),
  updated_at: s.updatedAt,
});

const toWorkspace = (d: WorkspaceDoc): Workspace => ({
  id: d._id,
  name: d.name,
  tier: d.tier as Tier,
  subscriptionStatus: d.subscription_status as SubscriptionStatus,
  reviewRequired: d.review_required,
  ownerUserId: d.owner_user_id,
  createdAt: d.created_at,
  currentPeriodEnd: d.current_period_end ?? undefined,
  cancelAtPeriodEnd: d.cancel_at_period_end ?? false,
});
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
  updatedAt: d.updated_at,
});

/** Only the fields that have a value (an undefined would be stored as null). */
const defined = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

const preferencesState = (p: StoredPreferences): PreferencesState => {
  const n = p.emailNotifications ?? {};
  return {
    ...defined({
      tone: p.tone, include_emoji: p.includeEmoji, structure: p.structure, custom_rules: p.customRules, timezone: p.timezone,
      use_post_metrics_for_ai: p.usePostMetricsForAi, theme: p.theme, ai_model: p.aiModel,
    }),
    email_notifications: defined({ post_failure: n.postFailure, weekly_briefing: n.weeklyBriefing, product_tips: n.productTips, re_engagement: n.reEngagement }),
    updated_at: p.updatedAt,
  };
};

interface CustomRuleDoc { _id: number; workspace_id: number; slot: string; created_at: Date }

const toCustomRule = (head: CustomRuleDoc, state: CustomRuleState): CustomRule => ({
  id: head._id,
  workspaceId: head.workspace_id,
  title: state.title,
  content: state.content,
  active: state.active,
  scope: state.scope as CustomRuleScope,
  createdAt: head.created_at,
  updatedAt: state.updated_at,
});

const toApiKey = (d: ApiKeyDoc): ApiKey => ({
  id: d._id,
  workspaceId: d.workspace_id,
  userId: d.user_id,
  hash: d.hash,
  scopes: d.scopes as Scope[],
  createdAt: d.created_at,
  revokedAt: d.revoked_at ?? undefined,
});
const toSite = (d: SiteDoc): Site => ({
  id: d._id,
  workspaceId: d.workspace_id,
  name: d.name,
  url: d.url,
  cms: d.cms,
  tokenHash: d.token_hash,
  createdAt: d.created_at,
  lastPushAt: d.last_push_at ?? undefined,
  unmatchedPushes: d.unmatched_pushes,
});
const toSocialAccount = (d: SocialAccountDoc): SocialAccount => ({
  id: d._id,
  workspaceId: d.workspace_id,
  platform: d.platform as Platform,
  username: d.username,
  sandbox: d.sandbox,
  disconnected: d.disconnected,
  createdAt: d.created_at,
  sealedCredentials: d.sealed_credentials ?? undefined,
});

export class MongoAccountsStore implements AccountsStore {
  readonly models: AccountsModels;
  private readonly ids: IdAllocator;
  private readonly preferences: RevisionLog<PreferencesState>;
  private readonly ruleStates: RevisionLog<CustomRuleState>;

  constructor(connection: Connection) {
    this.models = registerModels(connection);
    this.ids = new IdAllocator(connection);
    this.preferences = new RevisionLog(this.models.PreferencesRevision, (key) => `The preferences of workspace ${key}`);
    this.ruleStates = new RevisionLog(this.models.CustomRuleRevision, (key) => `Custom rule ${key}`);
  }

  nextId(sequence: string): Promise<number> {
    return this.ids.next(sequence);
  }

  nextIds(sequence: string, count: number): Promise<number[]> {
    return this.ids.reserve(sequence, count);
  }

  async insertWorkspace(w: Workspace): Promise<void> {
    await this.models.Workspace.create({
      _id: w.id, name: w.name, tier: w.tier, subscription_status: w.subscriptionStatus,
      review_required: w.reviewRequired, owner_user_id: w.ownerUserId, created_at: w.createdAt,
      current_period_end: w.currentPeriodEnd, cancel_at_period_end: w.cancelAtPeriodEnd,
    });
  }

  async getWorkspace(id: number): Promise<Workspace | null> {
    const doc = await this.models.Workspace.findById(id).lean<WorkspaceDoc>();
    return doc ? toWorkspace(doc) : null;
  }

  async updateWorkspace(id: number, patch: WorkspacePatch): Promise<Workspace | null> {
    const set: Record<string, unknown> = {};
    if (patch.tier !== undefined) set.tier = patch.tier;
    if (patch.subscriptionStatus !== undefined) set.subscription_status = patch.subscriptionStatus;
    if (patch.reviewRequired !== undefined) set.review_required = patch.reviewRequired;
    if (patch.currentPeriodEnd !== undefined) set.current_period_end = patch.currentPeriodEnd;
    if (patch.cancelAtPeriodEnd !== undefined) set.cancel_at_period_end = patch.cancelAtPeriodEnd;
    const doc = await this.models.Workspace.findByIdAndUpdate(id, { $set: set }, { returnDocument: 'after' }).lean<WorkspaceDoc>();
    return doc ? toWorkspace(doc) : null;
  }

  async insertUser(u: User): Promise<void> {
    try {
      await this.models.User.create({ _id: u.id, email: u.email, created_at: u.createdAt });
    } catch (err) {
      if (isDuplicateKeyError(err)) throw invalidParameters([`email ${u.email} is already registered`]);
      throw err;
    }
  }

  async getUser(id: number): Promise<User | null> {
    const doc = await this.models.User.findById(id).lean<{ _id: number; email: string; created_at: Date }>();
    return doc ? { id: doc._id, email: doc.email, createdAt: doc.created_at } : null;
  }

  async addMembership(workspaceId: number, userId: number): Promise<void> {
    await this.models.Membership.updateOne(
      { workspace_id: workspaceId, user_id: userId },
      { $setOnInsert: { workspace_id: workspaceId, user_id: userId } },
      { upsert: true },
    );
  }

  async removeMembership(workspaceId: number, userId: number): Promise<boolean> {
    const result = await this.models.Membership.deleteOne({ workspace_id: workspaceId, user_id: userId });
    return result.deletedCount > 0;
  }

  async isMember(workspaceId: number, userId: number): Promise<boolean> {
    return (await this.models.Membership.exists({ workspace_id: workspaceId, user_id: userId })) !== null;
  }

  async insertActiveApiKey(k: ApiKey): Promise<void> {
    try {
      await this.models.ApiKey.create({
        _id: k.id, workspace_id: k.workspaceId, user_id: k.userId, hash: k.hash, scopes: k.scopes,
        slot: `active:${k.workspaceId}`, created_at: k.createdAt,
      });
    } catch (err) {
      if (isDuplicateKeyError(err)) throw apiKeyLimitReached();
      throw err;
    }
  }

  async revokeActiveApiKey(workspaceId: number, at: Date): Promise<ApiKey | null> {
    const active = await this.models.ApiKey.findOne({ slot: `active:${workspaceId}` }).lean<ApiKeyDoc>();
    if (!active) return null;
    const doc = await this.models.ApiKey.findOneAndUpdate(
      { _id: active._id, slot: `active:${workspaceId}` },
      { $set: { slot: `revoked:${active._id}`, revoked_at: at } },
      { returnDocument: 'after' },
    ).lean<ApiKeyDoc>();
    return doc ? toApiKey(doc) : null;
  }

  async findActiveApiKeyByHash(hash: string): Promise<ApiKey | null> {
    const doc = await this.models.ApiKey.findOne({ hash }).lean<ApiKeyDoc & { slot: string }>();
    return doc && doc.slot.startsWith('active:') ? toApiKey(doc) : null;
  }

  async insertSite(s: Site): Promise<void> {
    await this.models.Site.create({
      _id: s.id, workspace_id: s.workspaceId, name: s.name, url: s.url, cms: s.cms,
      token_hash: s.tokenHash, created_at: s.createdAt, unmatched_pushes: s.unmatchedPushes,
    });
  }

  async getSite(workspaceId: number, siteId: number): Promise<Site | null> {
    const doc = await this.models.Site.findOne({ _id: siteId, workspace_id: workspaceId }).lean<SiteDoc>();
    return doc ? toSite(doc) : null;
  }

  async findSiteByTokenHash(hash: string): Promise<Site | null> {
    const doc = await this.models.Site.findOne({ token_hash: hash }).lean<SiteDoc>();
    return doc ? toSite(doc) : null;
  }

  async insertSocialAccount(a: SocialAccount): Promise<void> {
    await this.models.SocialAccount.create({
      _id: a.id, workspace_id: a.workspaceId, platform: a.platform, username: a.username,
      sandbox: a.sandbox, disconnected: a.disconnected, created_at: a.createdAt, sealed_credentials: a.sealedCredentials,
    });
  }

  async listSocialAccounts(workspaceId: number, ids?: number[]): Promise<SocialAccount[]> {
    const filter = ids ? { workspace_id: workspaceId, _id: { $in: ids } } : { workspace_id: workspaceId };
    const docs = await this.models.SocialAccount.find(filter).sort({ _id: 1 }).lean<SocialAccountDoc[]>();
    return docs.map(toSocialAccount);
  }

  async markDisconnected(workspaceId: number, socialAccountId: number): Promise<boolean> {
    const result = await this.models.SocialAccount.updateOne({ _id: socialAccountId, workspace_id: workspaceId }, { $set: { disconnected: true } });
    return result.matchedCount === 1;
  }

  async insertSchedule(schedule: PostingSchedule): Promise<void> {
    await this.models.PostingSchedule.create(scheduleDoc(schedule));
  }

  async listSchedules(workspaceId: number): Promise<PostingSchedule[]> {
    const docs = await this.models.PostingSchedule.find({ workspace_id: workspaceId }).sort({ _id: 1 }).lean<ScheduleDoc[]>();
    return docs.map(toSchedule);
  }

  async findSchedule(workspaceId: number, by: { id: number } | { socialAccountId: number }): Promise<PostingSchedule | null> {
    const filter = 'id' in by ? { _id: by.id, workspace_id: workspaceId } : { social_account_id: by.socialAccountId, workspace_id: workspaceId };
    const doc = await this.models.PostingSchedule.findOne(filter).lean<ScheduleDoc>();
    return doc ? toSchedule(doc) : null;
  }

  async replaceSchedule(current: PostingSchedule, next: PostingSchedule): Promise<boolean> {
    const result = await this.models.PostingSchedule.replaceOne(
      { _id: current.id, workspace_id: current.workspaceId, updated_at: current.updatedAt },
      scheduleDoc(next),
    );
    return result.matchedCount === 1;
  }

  async getPreferences(workspaceId: number): Promise<StoredPreferences | null> {
    const state = await this.preferences.latest(workspaceId, String(workspaceId));
    return state ? toStoredPreferences(state) : null;
  }

  async changePreferences(workspaceId: number, change: (current: StoredPreferences | null) => StoredPreferences): Promise<void> {
    await this.preferences.change(workspaceId, String(workspaceId), (current) => preferencesState(change(current && toStoredPreferences(current))));
  }

  async insertCustomRule(rule: CustomRule, maxPerWorkspace: number): Promise<boolean> {
    const key = String(rule.id);
    // The contents first: until the rule (with its slot) exists they are invisible, and removed when it cannot.
    await this.ruleStates.change(rule.workspaceId, key, () => ({
      title: rule.title, content: rule.content, active: rule.active, scope: rule.scope, updated_at: rule.updatedAt,
    }));
    // Every failed attempt means another rule took a slot, so this ends after at most `maxPerWorkspace` retries.
    for (let attempt = 0; attempt <= maxPerWorkspace; attempt++) {
      const taken = new Set(
        (await this.models.CustomRule.find({ workspace_id: rule.workspaceId }, { slot: 1 }).lean<Array<{ slot: string }>>()).map((d) => d.slot),
      );
      const free = Array.from({ length: maxPerWorkspace }, (_, n) => `${rule.workspaceId}:${n}`).filter((s) => !taken.has(s));
      if (!free.length) break;
      // A random free slot: racing creates rarely pick the same one.
      const slot = free[Math.floor(Math.random() * free.length)];
      try {
        await this.models.CustomRule.create({ _id: rule.id, workspace_id: rule.workspaceId, slot, created_at: rule.createdAt });
        return true;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
    await this.ruleStates.remove(rule.workspaceId, key);
    return false;
  }

  async listCustomRules(workspaceId: number, filter: { active?: boolean } = {}): Promise<CustomRule[]> {
    const heads = await this.models.CustomRule.find({ workspace_id: workspaceId }).sort({ _id: 1 }).lean<CustomRuleDoc[]>();
    const states = await this.ruleStates.latestOfWorkspace(workspaceId);
    return heads
      .flatMap((head) => {
        const state = states.get(String(head._id));
        return state ? [toCustomRule(head, state)] : [];
      })
      .filter((r) => filter.active === undefined || r.active === filter.active);
  }

  async getCustomRule(workspaceId: number, id: number): Promise<CustomRule | null> {
    const head = await this.models.CustomRule.findOne({ _id: id, workspace_id: workspaceId }).lean<CustomRuleDoc>();
    const state = head && (await this.ruleStates.latest(workspaceId, String(id)));
    return head && state ? toCustomRule(head, state) : null;
  }

  async changeCustomRule(workspaceId: number, id: number, change: (current: CustomRule) => CustomRulePatch, at: Date): Promise<CustomRule | null> {
    const head = await this.models.CustomRule.findOne({ _id: id, workspace_id: workspaceId }).lean<CustomRuleDoc>();
    if (!head) return null;
    const state = await this.ruleStates.change(workspaceId, String(id), (current) =>
      current ? { ...current, ...defined(change(toCustomRule(head, current))), updated_at: at } : null,
    );
    return state ? toCustomRule(head, state) : null;
  }

  async deleteCustomRule(workspaceId: number, id: number): Promise<CustomRule | null> {
    const rule = await this.getCustomRule(workspaceId, id);
    if (!rule) return null;
    const { deletedCount } = await this.models.CustomRule.deleteOne({ _id: id, workspace_id: workspaceId });
    await this.ruleStates.remove(workspaceId, String(id));
    return deletedCount ? rule : null;
  }
}
