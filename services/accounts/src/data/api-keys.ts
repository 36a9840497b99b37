import { AppError } from '@spa/errors';
import { isDuplicateKeyError } from '@spa/mongo';
import type { Scope } from '@spa/vocabulary';
import { apiKeyLimitReached } from '../domain/api-keys.js';
import type { ApiKey } from '../domain/model.js';
import type { ApiKeysRepository } from '../domain/ports.js';
import type { AccountsModels } from './models.js';

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

/** Revokes and creates racing for a workspace's active key slot retry at most this often (each retry means another request revoked a key). */
const MAX_KEY_ATTEMPTS = 25;

/** API keys: a workspace's one active key holds the unique slot `active:<workspace>`. */
export class MongoApiKeys implements ApiKeysRepository {
  constructor(private readonly models: AccountsModels) {}

  async insertActive(k: ApiKey): Promise<void> {
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
  async revokeActive(workspaceId: number, at: Date): Promise<ApiKey | null> {
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

  async findActiveByHash(hash: string): Promise<ApiKey | null> {
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
}
