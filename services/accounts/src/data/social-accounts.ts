import { eventIdOf, publicEvent, type EventOutbox } from '@spa/events';
import type { Platform, PublishErrorClass, RefreshOutcome } from '@spa/vocabulary';
import type { mongo } from 'mongoose';
import type { AccountEvent } from '../domain/account-events.js';
import type { DisconnectCause, SocialAccount } from '../domain/model.js';
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
  disconnect_cause?: string | null;
  refreshable?: boolean | null;
  last_refresh_try_at?: Date | null;
  last_refresh_outcome?: string | null;
  last_refresh_error?: string | null;
  last_publish_error_class?: string | null;
  last_publish_error_at?: Date | null;
  expiring_warned_for?: Date | null;
  /** When the last change that announced a public event was made (the outbox's check that it landed). */
  health_changed_at?: Date | null;
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
  disconnectCause: (d.disconnect_cause ?? undefined) as DisconnectCause | undefined,
  refreshable: d.refreshable ?? undefined,
  lastRefreshTryAt: d.last_refresh_try_at ?? undefined,
  lastRefreshOutcome: (d.last_refresh_outcome ?? undefined) as RefreshOutcome | undefined,
  lastRefreshError: d.last_refresh_error ?? undefined,
  lastPublishErrorClass: (d.last_publish_error_class ?? undefined) as PublishErrorClass | undefined,
  lastPublishErrorAt: d.last_publish_error_at ?? undefined,
  expiringWarnedFor: d.expiring_warned_for ?? undefined,
});

/** Social accounts as the API manages them (the connect flows write theirs through the connection store). */
export class MongoSocialAccounts implements SocialAccountsRepository {
  /** `outbox`: where the public event of a change is queued before it; without one, nothing is announced. */
  constructor(
    private readonly models: AccountsModels,
    private readonly outbox?: EventOutbox,
  ) {}

  /** The collection as the driver sees it: fields the schema does not name (health) are written as they are. */
  private get docs() {
    return this.models.SocialAccount.collection as unknown as mongo.Collection<SocialAccountDoc>;
  }

  /** Runs the write with its event queued first (landed when `field` of the account reaches `value`). */
  private announced<T>(
    socialAccountId: number,
    announce: AccountEvent | undefined,
    landed: { field: string; value: Date; op: 'eq' | 'gte' },
    write: () => Promise<T>,
    applied: (r: T) => boolean,
  ): Promise<T> {
    if (!announce || !this.outbox) return write();
    const event = publicEvent(eventIdOf(this.outbox.namespace, announce.key, announce.kind), announce.workspaceId, announce.kind, announce.occurredAt, announce.data);
    return this.outbox.around([{ event, landedWhen: { collection: 'social_accounts', id: socialAccountId, ...landed } }], write, applied);
  }

  async insert(a: SocialAccount, announce?: AccountEvent): Promise<void> {
    await this.announced(
      a.id,
      announce,
      { field: 'created_at', value: a.createdAt, op: 'eq' },
      () =>
        this.models.SocialAccount.create({
          _id: a.id,
          workspace_id: a.workspaceId,
          platform: a.platform,
          username: a.username,
          sandbox: a.sandbox,
          disconnected: a.disconnected,
          created_at: a.createdAt,
          sealed_credentials: a.sealedCredentials,
        }),
      () => true,
    );
  }

  async list(workspaceId: number, ids?: number[]): Promise<SocialAccount[]> {
    const filter = ids ? { workspace_id: workspaceId, _id: { $in: ids } } : { workspace_id: workspaceId };
    const docs = await this.models.SocialAccount.find(filter).sort({ _id: 1 }).lean<SocialAccountDoc[]>();
    return docs.map(toSocialAccount);
  }

  async markDisconnected(workspaceId: number, socialAccountId: number, why?: { cause: DisconnectCause; message: string; announce?: AccountEvent | undefined }): Promise<boolean> {
    const at = why?.announce?.occurredAt ?? new Date();
    const set = why ? { disconnected: true, disconnect_cause: why.cause, disconnected_reason: why.message, health_changed_at: at } : { disconnected: true };
    const result = await this.announced(
      socialAccountId,
      why?.announce,
      { field: 'health_changed_at', value: at, op: 'gte' },
      () => this.docs.updateOne({ _id: socialAccountId, workspace_id: workspaceId }, { $set: set }),
      (r) => r.matchedCount === 1,
    );
    return result.matchedCount === 1;
  }

  async recordPublishError(workspaceId: number, socialAccountId: number, errorClass: PublishErrorClass, at: Date): Promise<boolean> {
    const result = await this.docs.updateOne({ _id: socialAccountId, workspace_id: workspaceId }, { $set: { last_publish_error_class: errorClass, last_publish_error_at: at } });
    return result.matchedCount === 1;
  }
}
