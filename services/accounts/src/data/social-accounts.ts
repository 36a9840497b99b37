import type { Platform } from '@spa/vocabulary';
import type { SocialAccount } from '../domain/model.js';
import type { SocialAccountsRepository } from '../domain/ports.js';
import type { AccountsModels } from './models.js';

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

/** Social accounts as the API manages them (the connect flows write theirs through the connection store). */
export class MongoSocialAccounts implements SocialAccountsRepository {
  constructor(private readonly models: AccountsModels) {}

  async insert(a: SocialAccount): Promise<void> {
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

  async list(workspaceId: number, ids?: number[]): Promise<SocialAccount[]> {
    const filter = ids ? { workspace_id: workspaceId, _id: { $in: ids } } : { workspace_id: workspaceId };
    const docs = await this.models.SocialAccount.find(filter).sort({ _id: 1 }).lean<SocialAccountDoc[]>();
    return docs.map(toSocialAccount);
  }

  async markDisconnected(workspaceId: number, socialAccountId: number): Promise<boolean> {
    const result = await this.models.SocialAccount.updateOne({ _id: socialAccountId, workspace_id: workspaceId }, { $set: { disconnected: true } });
    return result.matchedCount === 1;
  }
}
