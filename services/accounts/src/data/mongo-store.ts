import { invalidParameters } from '@spa/errors';
import { IdAllocator, isDuplicateKeyError, type Connection } from '@spa/mongo';
import type { Platform, Scope, SubscriptionStatus, Tier } from '@spa/vocabulary';
import { apiKeyLimitReached } from '../domain/api-keys.js';
import type { ApiKey, Site, SocialAccount, User, Workspace } from '../domain/model.js';
import type { AccountsStore } from '../domain/ports.js';
import { registerModels, type AccountsModels } from './models.js';

interface WorkspaceDoc { _id: number; name: string; tier: string; subscription_status: string; review_required: boolean; owner_user_id: number; created_at: Date }
interface ApiKeyDoc { _id: number; workspace_id: number; user_id: number; hash: string; scopes: string[]; created_at: Date; revoked_at?: Date | null }
interface SiteDoc { _id: number; workspace_id: number; name: string; url: string; cms: string; token_hash: string; created_at: Date; last_push_at?: Date | null; unmatched_pushes: number }
interface SocialAccountDoc { _id: number; workspace_id: number; platform: string; username: string; sandbox: boolean; disconnected: boolean; created_at: Date }

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
      sandbox: a.sandbox, disconnected: a.disconnected, created_at: a.createdAt,
    });
  }

  async listSocialAccounts(workspaceId: number, ids?: number[]): Promise<SocialAccount[]> {
    const filter = ids ? { workspace_id: workspaceId, _id: { $in: ids } } : { workspace_id: workspaceId };
    const docs = await this.models.SocialAccount.find(filter).sort({ _id: 1 }).lean<SocialAccountDoc[]>();
    return docs.map(toSocialAccount);
  }
}
