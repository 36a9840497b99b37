import { eventIdOf, publicEvent, type EventOutbox } from '@spa/events';
import { isDuplicateKeyError, type Connection } from '@spa/mongo';
import type { Platform } from '@spa/vocabulary';
import type { ConnectionChange, ConnectionStore, OAuthStateRecord } from '../domain/connect/ports.js';
import type { SocialAccount } from '../domain/model.js';
import { toSocialAccount, type SocialAccountDoc } from './social-accounts.js';

interface StateDoc {
  _id: string;
  workspace_id: number;
  platform: string;
  sealed: string;
  instance_url?: string;
  created_at: Date;
  expires_at: Date;
}

/**
 * Connections: OAuth states (single use claimed by a unique insert of their id), platform identities
 * (one social account per workspace, platform and platform account, claimed by unique insert) and
 * credential leases (single-flight refresh and reconnect across replicas: a unique insert with an
 * expiry; an expired lease is deleted by a conditional delete, never updated in place, because
 * FerretDB does not apply concurrent updates of one document atomically).
 */
export class MongoConnectionStore implements ConnectionStore {
  /** `outbox`: where a change's public event (`announce`) is queued before the change; without one, nothing is announced. */
  constructor(
    private readonly connection: Connection,
    private readonly outbox?: EventOutbox,
  ) {}

  private get accounts() {
    return this.connection.collection<SocialAccountDoc>('social_accounts');
  }

  private get models() {
    const c = this.connection;
    return {
      State: c.collection<StateDoc>('oauth_states'),
      StateUse: c.collection<{ _id: string; used_at: Date }>('oauth_state_uses'),
      Identity: c.collection<{ _id: string; social_account_id: number }>('platform_identities'),
      Lease: c.collection<{ _id: number; holder: string; until: Date }>('credential_leases'),
    };
  }

  async insertState(s: OAuthStateRecord): Promise<void> {
    await this.models.State.insertOne({
      _id: s.id,
      workspace_id: s.workspaceId,
      platform: s.platform,
      sealed: s.sealed,
      instance_url: s.instanceUrl,
      created_at: s.createdAt,
      expires_at: s.expiresAt,
    });
  }

  async findState(id: string): Promise<OAuthStateRecord | null> {
    const d = await this.models.State.findOne({ _id: id });
    return (
      d && { id: d._id, workspaceId: d.workspace_id, platform: d.platform as Platform, sealed: d.sealed, instanceUrl: d.instance_url ?? undefined, createdAt: d.created_at, expiresAt: d.expires_at }
    );
  }

  async claimStateUse(id: string, at: Date): Promise<boolean> {
    return this.insertOnce(() => this.models.StateUse.insertOne({ _id: id, used_at: at }));
  }

  async claimIdentity(key: string, socialAccountId: number): Promise<number> {
    if (await this.insertOnce(() => this.models.Identity.insertOne({ _id: key, social_account_id: socialAccountId }))) return socialAccountId;
    const held = await this.models.Identity.findOne({ _id: key });
    return held!.social_account_id;
  }

  async acquireLease(socialAccountId: number, holder: string, now: Date, ttlMs: number): Promise<boolean> {
    const take = () => this.insertOnce(() => this.models.Lease.insertOne({ _id: socialAccountId, holder, until: new Date(now.getTime() + ttlMs) }));
    if (await take()) return true;
    // A lease whose holder died: remove it only while it is still expired, then race for it by insert.
    const removed = await this.models.Lease.deleteOne({ _id: socialAccountId, until: { $lt: now } });
    return removed.deletedCount === 1 ? take() : false;
  }

  async releaseLease(socialAccountId: number, holder: string): Promise<void> {
    await this.models.Lease.deleteOne({ _id: socialAccountId, holder });
  }

  async saveConnection(socialAccountId: number, c: ConnectionChange): Promise<void> {
    const set: Record<string, unknown> = {};
    const unset: Record<string, ''> = {};
    const put = (field: string, value: unknown) => {
      if (value === undefined) return;
      if (value === null) unset[field] = '';
      else set[field] = value;
    };
    put('username', c.username);
    put('display_name', c.displayName);
    put('avatar_url', c.avatarUrl);
    put('external_id', c.externalId);
    put('sealed_credentials', c.sealedCredentials);
    put('token_expires_at', c.tokenExpiresAt);
    put('connected_at', c.connectedAt);
    put('last_refresh_at', c.lastRefreshAt);
    put('disconnected', c.disconnected);
    put('disconnected_reason', c.disconnectedReason);
    put('disconnect_cause', c.disconnectCause);
    put('refreshable', c.refreshable);
    put('last_refresh_try_at', c.lastRefreshTryAt);
    put('last_refresh_outcome', c.lastRefreshOutcome);
    put('last_refresh_error', c.lastRefreshError);
    put('last_publish_error_class', c.lastPublishErrorClass);
    put('last_publish_error_at', c.lastPublishErrorAt);
    put('expiring_warned_for', c.expiringWarnedFor);
    const announce = this.outbox ? c.announce : undefined;
    if (announce) put('health_changed_at', announce.occurredAt);
    const write = () => this.accounts.updateOne({ _id: socialAccountId }, { ...(Object.keys(set).length ? { $set: set } : {}), ...(Object.keys(unset).length ? { $unset: unset } : {}) });
    if (!announce) {
      await write();
      return;
    }
    const event = publicEvent(eventIdOf(this.outbox!.namespace, announce.key, announce.kind), announce.workspaceId, announce.kind, announce.occurredAt, announce.data);
    await this.outbox!.around(
      [{ event, landedWhen: { collection: 'social_accounts', id: socialAccountId, field: 'health_changed_at', value: announce.occurredAt, op: 'gte' } }],
      write,
      (r) => r.matchedCount === 1,
    );
  }

  async dueForRefresh(before: Date, limit: number, now = new Date()): Promise<Array<{ id: number; workspaceId: number }>> {
    const docs = await this.accounts
      .find({
        disconnected: false,
        $or: [
          { refreshable: { $ne: false }, token_expires_at: { $lt: before } },
          { refreshable: false, token_expires_at: { $lt: now } },
        ],
      })
      .project<{ _id: number; workspace_id: number }>({ _id: 1, workspace_id: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => ({ id: d._id, workspaceId: d.workspace_id }));
  }

  async expiringBetween(now: Date, before: Date, limit: number): Promise<SocialAccount[]> {
    const docs = await this.accounts
      .find({ disconnected: false, refreshable: { $ne: true }, token_expires_at: { $gt: now, $lt: before } })
      .limit(limit)
      .toArray();
    return docs.map(toSocialAccount);
  }

  async findAccount(socialAccountId: number): Promise<SocialAccount | null> {
    const d = await this.accounts.findOne({ _id: socialAccountId });
    return d && toSocialAccount(d);
  }

  private async insertOnce(insert: () => Promise<unknown>): Promise<boolean> {
    try {
      await insert();
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }
}
