import { invalidParameters } from '@spa/errors';
import { IdAllocator, isDuplicateKeyError, type Connection } from '@spa/mongo';
import type { Platform, Scope, SubscriptionStatus, Tier } from '@spa/vocabulary';
import { apiKeyLimitReached } from '../domain/api-keys.js';
import type { ApiKey, PostingSchedule, Site, SocialAccount, User, Workspace } from '../domain/model.js';
import type { AccountsStore } from '../domain/ports.js';
import { registerModels, type AccountsModels } from './models.js';

interface WorkspaceDoc { _id: number; name: string; tier: string; subscription_status: string; review_required: boolean; owner_user_id: number; created_at: Date }
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

  constructor(connection: Connection) {
    this.models = registerModels(connection);
    this.ids = new IdAllocator(connection);
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
    });
  }

  async getWorkspace(id: number): Promise<Workspace | null> {
    const doc = await this.models.Workspace.findById(id).lean<WorkspaceDoc>();
    return doc ? toWorkspace(doc) : null;
  }

  async updateWorkspace(id: number, patch: Partial<Pick<Workspace, 'tier' | 'subscriptionStatus' | 'reviewRequired'>>): Promise<Workspace | null> {
    const set: Record<string, unknown> = {};
    if (patch.tier !== undefined) set.tier = patch.tier;
    if (patch.subscriptionStatus !== undefined) set.subscription_status = patch.subscriptionStatus;
    if (patch.reviewRequired !== undefined) set.review_required = patch.reviewRequired;
    const doc = await this.models.Workspace.findByIdAndUpdate(id, { $set: set }, { new: true }).lean<WorkspaceDoc>();
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
      { new: true },
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
}
