import { AppError, invalidParameters } from '@spa/errors';
import { IdAllocator, isDuplicateKeyError, type Connection } from '@spa/mongo';
import type { CustomRuleScope, Platform, Scope, SubscriptionStatus, Tier } from '@spa/vocabulary';
import { apiKeyLimitReached } from '../domain/api-keys.js';
import type { ApiKey, CustomRule, CustomRulePatch, PostingSchedule, Site, SocialAccount, StoredPreferences, User, Workspace } from '../domain/model.js';
import type { AccountsStore, WorkspacePatch } from '../domain/ports.js';
import { registerModels, type AccountsModels, type CustomRuleState, type PreferencesState, type ScheduleState, type WorkspaceState } from './models.js';
import { RevisionLog } from './revisions.js';

/** Holds the changeable fields as created (revision 0). */
interface WorkspaceDoc extends WorkspaceState {
  _id: number;
  name: string;
  owner_user_id: number;
  created_at: Date;
}
export interface ApiKeyDoc {
  _id: number;
  workspace_id: number;
  user_id: number;
  hash: string;
  scopes: string[];
  created_at: Date;
  revoked_at?: Date | null;
  prefix?: string | null;
}
export interface SiteDoc {
  _id: number;
  workspace_id: number;
  name: string;
  url: string;
  cms: string;
  token_hash: string;
  created_at: Date;
  last_push_at?: Date | null;
  unmatched_pushes: number;
}
export interface SocialAccountDoc {
  _id: number;
  workspace_id: number;
  platform: string;
  username: string;
  sandbox: boolean;
  disconnected: boolean;
  created_at: Date;
  sealed_credentials?: string | null;
  // Written by the connection store (connect flows, refresh).
  display_name?: string;
  avatar_url?: string;
  connected_at?: Date | null;
  token_expires_at?: Date | null;
  last_refresh_at?: Date | null;
  disconnected_reason?: string;
}

/** Holds the schedule as created (revision 0). */
interface ScheduleDoc extends ScheduleState {
  _id: number;
  workspace_id: number;
  social_account_id: number;
}

/** The schedule `head` names, in the state `s` (the latest revision, or the head's own revision 0). */
const toSchedule = (head: ScheduleDoc, s: ScheduleState = head): PostingSchedule => ({
  id: head._id,
  workspaceId: head.workspace_id,
  socialAccountId: head.social_account_id,
  timezone: s.timezone,
  maxPostsPerDay: s.max_posts_per_day,
  paused: s.paused,
  postingSlots: s.posting_slots.map((p) => ({ id: p.id, dayOfWeek: p.day_of_week, timeOfDay: p.time_of_day, enabled: p.enabled, source: p.source })),
  updatedAt: s.updated_at,
});

const scheduleState = (s: PostingSchedule): ScheduleState => ({
  timezone: s.timezone,
  max_posts_per_day: s.maxPostsPerDay,
  paused: s.paused,
  posting_slots: s.postingSlots.map((p) => ({ id: p.id, day_of_week: p.dayOfWeek, time_of_day: p.timeOfDay, enabled: p.enabled, source: p.source })),
  updated_at: s.updatedAt,
});

/** The workspace `head` names, in the state `s` (the latest revision, or the head's own revision 0). */
const toWorkspace = (head: WorkspaceDoc, s: WorkspaceState = head): Workspace => ({
  id: head._id,
  name: head.name,
  tier: s.tier as Tier,
  subscriptionStatus: s.subscription_status as SubscriptionStatus,
  reviewRequired: s.review_required,
  ownerUserId: head.owner_user_id,
  createdAt: head.created_at,
  currentPeriodEnd: s.current_period_end ?? undefined,
  cancelAtPeriodEnd: s.cancel_at_period_end ?? false,
});

/** Only the changeable fields (a head document holds more), with `patch` applied. */
const workspaceState = (s: WorkspaceState, patch: WorkspacePatch): WorkspaceState => ({
  tier: patch.tier ?? s.tier,
  subscription_status: patch.subscriptionStatus ?? s.subscription_status,
  review_required: patch.reviewRequired ?? s.review_required,
  current_period_end: patch.currentPeriodEnd ?? s.current_period_end ?? null,
  cancel_at_period_end: patch.cancelAtPeriodEnd ?? s.cancel_at_period_end ?? false,
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
      tone: p.tone,
      include_emoji: p.includeEmoji,
      structure: p.structure,
      custom_rules: p.customRules,
      timezone: p.timezone,
      use_post_metrics_for_ai: p.usePostMetricsForAi,
      theme: p.theme,
      ai_model: p.aiModel,
    }),
    email_notifications: defined({ post_failure: n.postFailure, weekly_briefing: n.weeklyBriefing, product_tips: n.productTips, re_engagement: n.reEngagement }),
    updated_at: p.updatedAt,
  };
};

interface CustomRuleDoc {
  _id: number;
  workspace_id: number;
  slot: string;
  created_at: Date;
}

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

export const toApiKey = (d: ApiKeyDoc): ApiKey => ({
  id: d._id,
  workspaceId: d.workspace_id,
  userId: d.user_id,
  hash: d.hash,
  scopes: d.scopes as Scope[],
  createdAt: d.created_at,
  revokedAt: d.revoked_at ?? undefined,
  prefix: d.prefix ?? undefined,
});
export const toSite = (d: SiteDoc): Site => ({
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
export const toSocialAccount = (d: SocialAccountDoc): SocialAccount => ({
  id: d._id,
  workspaceId: d.workspace_id,
  platform: d.platform as Platform,
  username: d.username,
  sandbox: d.sandbox,
  disconnected: d.disconnected,
  createdAt: d.created_at,
  sealedCredentials: d.sealed_credentials ?? undefined,
  displayName: d.display_name,
  avatarUrl: d.avatar_url,
  connectedAt: d.connected_at ?? undefined,
  tokenExpiresAt: d.token_expires_at ?? undefined,
  lastRefreshAt: d.last_refresh_at ?? undefined,
  disconnectedReason: d.disconnected_reason,
});

/** Revokes and creates racing for a workspace's active key slot retry at most this often (each retry means another request revoked a key). */
const MAX_KEY_ATTEMPTS = 25;

export class MongoAccountsStore implements AccountsStore {
  readonly models: AccountsModels;
  private readonly ids: IdAllocator;
  private readonly workspaceStates: RevisionLog<WorkspaceState>;
  private readonly scheduleStates: RevisionLog<ScheduleState>;
  private readonly preferences: RevisionLog<PreferencesState>;
  private readonly ruleStates: RevisionLog<CustomRuleState>;

  constructor(connection: Connection) {
    this.models = registerModels(connection);
    this.ids = new IdAllocator(connection);
    this.workspaceStates = new RevisionLog(this.models.WorkspaceRevision, (key) => `Workspace ${key}`);
    this.scheduleStates = new RevisionLog(this.models.ScheduleRevision, (key) => `Posting schedule ${key}`);
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
      _id: w.id,
      name: w.name,
      tier: w.tier,
      subscription_status: w.subscriptionStatus,
      review_required: w.reviewRequired,
      owner_user_id: w.ownerUserId,
      created_at: w.createdAt,
      current_period_end: w.currentPeriodEnd,
      cancel_at_period_end: w.cancelAtPeriodEnd,
    });
  }

  async getWorkspace(id: number): Promise<Workspace | null> {
    const [head, state] = await Promise.all([this.models.Workspace.findById(id).lean<WorkspaceDoc>(), this.workspaceStates.latest(id, String(id))]);
    return head ? toWorkspace(head, state ?? head) : null;
  }

  async updateWorkspace(id: number, patch: WorkspacePatch): Promise<Workspace | null> {
    const head = await this.models.Workspace.findById(id).lean<WorkspaceDoc>();
    if (!head) return null;
    const state = await this.workspaceStates.change(id, String(id), (current) => workspaceState(current ?? head, patch));
    return state && toWorkspace(head, state);
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
    try {
      await this.models.Membership.create({ workspace_id: workspaceId, user_id: userId });
    } catch (err) {
      // Already a member (maybe by a racing request): adding is idempotent.
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  async removeMembership(workspaceId: number, userId: number): Promise<boolean> {
    const result = await this.models.Membership.deleteOne({ workspace_id: workspaceId, user_id: userId });
    return result.deletedCount > 0;
  }

  async isMember(workspaceId: number, userId: number): Promise<boolean> {
    return (await this.models.Membership.exists({ workspace_id: workspaceId, user_id: userId })) !== null;
  }

  async insertActiveApiKey(k: ApiKey): Promise<void> {
    const doc = {
      _id: k.id,
      workspace_id: k.workspaceId,
      user_id: k.userId,
      hash: k.hash,
      scopes: k.scopes,
      slot: `active:${k.workspaceId}`,
      created_at: k.createdAt,
      ...(k.prefix ? { prefix: k.prefix } : {}),
    };
    for (let attempt = 1; ; attempt++) {
      try {
        await this.models.ApiKey.create(doc);
        return;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        if (attempt >= MAX_KEY_ATTEMPTS || !(await this.freeRevokedSlot(k.workspaceId))) throw apiKeyLimitReached();
      }
    }
  }

  /**
   * A key is revoked by inserting its revocation (unique `_id`): of racing revokes exactly one succeeds, and
   * from then on the key authenticates no more. Only then is its active slot freed, which a later create
   * needs; a revoke that stopped in between is finished by the next revoke, create or authentication that
   * meets the key.
   */
  async revokeActiveApiKey(workspaceId: number, at: Date): Promise<ApiKey | null> {
    for (let attempt = 0; attempt < MAX_KEY_ATTEMPTS; attempt++) {
      const active = await this.models.ApiKey.findOne({ slot: `active:${workspaceId}` }).lean<ApiKeyDoc>();
      if (!active) return null;
      try {
        await this.models.ApiKeyRevocation.create({ _id: active._id, workspace_id: workspaceId, revoked_at: at });
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        // Another request revoked this key first: make sure its slot is free, then look again (a key
        // created since then is the active one now).
        await this.freeRevokedSlot(workspaceId);
        continue;
      }
      await this.freeSlot(active._id, at);
      return toApiKey({ ...active, revoked_at: at });
    }
    throw new AppError('INVALID_STATE', `The API keys of workspace ${workspaceId} are being revoked by many requests at once; retry`);
  }

  /** Frees the active slot when its key is revoked (false when the key in it is not). */
  private async freeRevokedSlot(workspaceId: number): Promise<boolean> {
    const holder = await this.models.ApiKey.findOne({ slot: `active:${workspaceId}` }, { _id: 1 }).lean<{ _id: number }>();
    if (!holder) return true;
    const revocation = await this.models.ApiKeyRevocation.findById(holder._id).lean<{ revoked_at: Date }>();
    if (!revocation) return false;
    await this.freeSlot(holder._id, revocation.revoked_at);
    return true;
  }

  /** Marks a key revoked. Whoever does it writes the same values (from its revocation), so racing writes agree. */
  private async freeSlot(keyId: number, revokedAt: Date): Promise<void> {
    await this.models.ApiKey.updateOne({ _id: keyId }, { $set: { slot: `revoked:${keyId}`, revoked_at: revokedAt } });
  }

  async findActiveApiKeyByHash(hash: string): Promise<ApiKey | null> {
    const doc = await this.models.ApiKey.findOne({ hash }).lean<ApiKeyDoc & { slot: string }>();
    if (!doc || !doc.slot.startsWith('active:')) return null;
    // The revocation decides, not the slot: a revoke that stopped before freeing the slot is finished here.
    const revocation = await this.models.ApiKeyRevocation.findById(doc._id).lean<{ revoked_at: Date }>();
    if (revocation) {
      await this.freeSlot(doc._id, revocation.revoked_at);
      return null;
    }
    return toApiKey(doc);
  }

  async insertSite(s: Site): Promise<void> {
    await this.models.Site.create({
      _id: s.id,
      workspace_id: s.workspaceId,
      name: s.name,
      url: s.url,
      cms: s.cms,
      token_hash: s.tokenHash,
      created_at: s.createdAt,
      unmatched_pushes: s.unmatchedPushes,
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
      _id: a.id,
      workspace_id: a.workspaceId,
      platform: a.platform,
      username: a.username,
      sandbox: a.sandbox,
      disconnected: a.disconnected,
      created_at: a.createdAt,
      sealed_credentials: a.sealedCredentials,
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

  async insertSchedule(s: PostingSchedule): Promise<void> {
    await this.models.PostingSchedule.create({ _id: s.id, workspace_id: s.workspaceId, social_account_id: s.socialAccountId, ...scheduleState(s) });
  }

  async listSchedules(workspaceId: number): Promise<PostingSchedule[]> {
    const [heads, states] = await Promise.all([
      this.models.PostingSchedule.find({ workspace_id: workspaceId }).sort({ _id: 1 }).lean<ScheduleDoc[]>(),
      this.scheduleStates.latestOfWorkspace(workspaceId),
    ]);
    return heads.map((head) => toSchedule(head, states.get(String(head._id))));
  }

  async findSchedule(workspaceId: number, by: { id: number } | { socialAccountId: number }): Promise<PostingSchedule | null> {
    const filter = 'id' in by ? { _id: by.id, workspace_id: workspaceId } : { social_account_id: by.socialAccountId, workspace_id: workspaceId };
    const head = await this.models.PostingSchedule.findOne(filter).lean<ScheduleDoc>();
    return head && toSchedule(head, (await this.scheduleStates.latest(workspaceId, String(head._id))) ?? head);
  }

  async changeSchedule(workspaceId: number, scheduleId: number, change: (current: PostingSchedule) => PostingSchedule): Promise<PostingSchedule | null> {
    const head = await this.models.PostingSchedule.findOne({ _id: scheduleId, workspace_id: workspaceId }).lean<ScheduleDoc>();
    if (!head) return null;
    const state = await this.scheduleStates.change(workspaceId, String(scheduleId), (current) => scheduleState(change(toSchedule(head, current ?? head))));
    return state && toSchedule(head, state);
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
      title: rule.title,
      content: rule.content,
      active: rule.active,
      scope: rule.scope,
      updated_at: rule.updatedAt,
    }));
    // Every failed attempt means another rule took a slot, so this ends after at most `maxPerWorkspace` retries.
    for (let attempt = 0; attempt <= maxPerWorkspace; attempt++) {
      const taken = new Set((await this.models.CustomRule.find({ workspace_id: rule.workspaceId }, { slot: 1 }).lean<Array<{ slot: string }>>()).map((d) => d.slot));
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
    const state = await this.ruleStates.change(workspaceId, String(id), (current) => (current ? { ...current, ...defined(change(toCustomRule(head, current))), updated_at: at } : null));
    return state ? toCustomRule(head, state) : null;
  }

  async deleteCustomRule(workspaceId: number, id: number): Promise<CustomRule | null> {
    const head = await this.models.CustomRule.findOne({ _id: id, workspace_id: workspaceId }).lean<CustomRuleDoc>();
    if (!head) return null;
    // The tombstone decides: of racing deletes one removes the rule, and a racing change lands before it or
    // finds the rule gone. Then the rule's slot is freed.
    const removed = await this.ruleStates.remove(workspaceId, String(id));
    await this.models.CustomRule.deleteOne({ _id: id, workspace_id: workspaceId });
    return removed && toCustomRule(head, removed);
  }
}
