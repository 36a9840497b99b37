import { isDuplicateKeyError, type Connection } from '@spa/mongo';
import { Schema } from 'mongoose';
import type { DashboardStore } from '../domain/dashboard-ports.js';
import type { ApiKey, Site, User } from '../domain/model.js';
import type { AccountsModels } from './models.js';
import { toApiKey, type ApiKeyDoc } from './api-keys.js';
import { toSite, type SiteDoc } from './sites.js';

/** Dashboard collections: one password hash per user, one last-use time per API key (`_id` = the owner's id). */
function registerDashboardModels(connection: Connection) {
  const UserPassword = connection.model(
    'UserPassword',
    new Schema({ _id: Number, hash: { type: String, required: true }, updated_at: { type: Date, required: true } }, { collection: 'user_passwords', versionKey: false }),
  );
  const ApiKeyUse = connection.model('ApiKeyUse', new Schema({ _id: Number, last_used_at: { type: Date, required: true } }, { collection: 'api_key_uses', versionKey: false }));
  return { UserPassword, ApiKeyUse };
}

/**
 * Sign-in and dashboard reads on the accounts database. Users, memberships, keys and sites are read through
 * the accounts models (one owner per collection: this process).
 */
export class MongoDashboardStore implements DashboardStore {
  private readonly own: ReturnType<typeof registerDashboardModels>;

  constructor(
    connection: Connection,
    private readonly models: AccountsModels,
  ) {
    this.own = registerDashboardModels(connection);
  }

  async setPasswordHash(userId: number, hash: string, at: Date): Promise<void> {
    // Last writer wins (a password change is one person's act); a racing first insert is retried as a replace.
    for (let attempt = 0; ; attempt++) {
      try {
        await this.own.UserPassword.replaceOne({ _id: userId }, { _id: userId, hash, updated_at: at }, { upsert: true });
        return;
      } catch (err) {
        if (!isDuplicateKeyError(err) || attempt >= 2) throw err;
      }
    }
  }

  async getPasswordHash(userId: number): Promise<string | null> {
    return (await this.own.UserPassword.findById(userId).lean<{ hash: string }>())?.hash ?? null;
  }

  async findUserByEmail(email: string): Promise<User | null> {
    const doc = await this.models.User.findOne({ email }).lean<{ _id: number; email: string; created_at: Date }>();
    return doc ? { id: doc._id, email: doc.email, createdAt: doc.created_at } : null;
  }

  async listMemberWorkspaceIds(userId: number): Promise<number[]> {
    const docs = await this.models.Membership.find({ user_id: userId }, { workspace_id: 1 }).lean<Array<{ _id: unknown; workspace_id: number }>>();
    return docs.map((d) => d.workspace_id).sort((a, b) => a - b);
  }

  async findActiveApiKey(workspaceId: number): Promise<ApiKey | null> {
    const doc = await this.models.ApiKey.findOne({ slot: `active:${workspaceId}` }).lean<ApiKeyDoc>();
    if (!doc) return null;
    // A key whose revocation is recorded is revoked, even while its slot is not yet freed.
    if (await this.models.ApiKeyRevocation.exists({ _id: doc._id })) return null;
    return toApiKey(doc);
  }

  async recordApiKeyUse(keyId: number, at: Date): Promise<void> {
    try {
      await this.own.ApiKeyUse.replaceOne({ _id: keyId }, { _id: keyId, last_used_at: at }, { upsert: true });
    } catch (err) {
      // Another replica recorded a use at the same moment: either time is right to the minute.
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  async lastApiKeyUse(keyId: number): Promise<Date | null> {
    return (await this.own.ApiKeyUse.findById(keyId).lean<{ last_used_at: Date }>())?.last_used_at ?? null;
  }

  async listSites(workspaceId: number): Promise<Site[]> {
    const docs = await this.models.Site.find({ workspace_id: workspaceId }).lean<SiteDoc[]>();
    return docs.map(toSite).sort((a, b) => a.id - b.id);
  }
}
