import { isDuplicateKeyError } from '@spa/mongo';
import type { Leases, PostClaims, QuoteLedger, RecordedBatch, RunQuotaClaims } from '../domain/ports.js';
import type { Models } from './models.js';

/**
 * Leases as uniquely keyed documents. Taking a free key is an insert (the unique _id makes one taker win); taking
 * an expired one first deletes exactly that expired document (matched by owner and expiry, so a renewal or another
 * taker in between makes the delete match nothing) and then inserts. Only the owner renews its document.
 */
export class MongoLeases implements Leases {
  constructor(private readonly m: Models) {}

  async acquire(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const c = this.m.Lease.collection;
    const now = new Date();
    const expires = new Date(now.getTime() + ttlMs);
    const current = await c.findOne({ _id: key } as never);
    if (current) {
      if (current.owner === owner) {
        const r = await c.updateOne({ _id: key, owner } as never, { $set: { expires_at: expires } });
        return r.matchedCount === 1;
      }
      if ((current.expires_at as Date).getTime() > now.getTime()) return false;
      await c.deleteOne({ _id: key, owner: current.owner, expires_at: current.expires_at } as never);
    }
    try {
      await c.insertOne({ _id: key, owner, expires_at: expires } as never);
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  async release(key: string, owner: string): Promise<void> {
    await this.m.Lease.collection.deleteOne({ _id: key, owner } as never);
  }

  async holds(key: string, owner: string): Promise<boolean> {
    const doc = await this.m.Lease.collection.findOne({ _id: key } as never);
    return !!doc && doc.owner === owner && (doc.expires_at as Date).getTime() > Date.now();
  }
}

/** One claim document per item: inserted by its worker before it creates the post, or by a cancel before that. */
export class MongoPostClaims implements PostClaims {
  constructor(private readonly m: Models) {}

  private async insert(itemId: number, state: 'mine' | 'canceled'): Promise<boolean> {
    try {
      await this.m.PostClaim.collection.insertOne({ _id: itemId, state, claimed_at: new Date() } as never);
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  async claim(itemId: number): Promise<{ state: 'mine' | 'canceled'; postId?: number | undefined }> {
    if (await this.insert(itemId, 'mine')) return { state: 'mine' };
    const doc = await this.m.PostClaim.collection.findOne({ _id: itemId } as never);
    return { state: doc?.state === 'canceled' ? 'canceled' : 'mine', postId: (doc?.post_id as number | undefined) ?? undefined };
  }

  cancel(itemId: number): Promise<boolean> {
    return this.insert(itemId, 'canceled');
  }

  async recordPost(itemId: number, postId: number): Promise<void> {
    await this.m.PostClaim.collection.updateOne({ _id: itemId } as never, { $set: { post_id: postId } });
  }
}

export class MongoRunQuotaClaims implements RunQuotaClaims {
  constructor(private readonly m: Models) {}

  async claimed(workspaceId: number, month: string): Promise<{ slot: number; runId: number }[]> {
    const docs = await this.m.QuotaClaim.collection.find({ workspace_id: workspaceId, month }).toArray();
    return docs.map((d) => ({ slot: d.slot as number, runId: d.run_id as number }));
  }

  async claim(workspaceId: number, month: string, slot: number, runId: number): Promise<boolean> {
    try {
      await this.m.QuotaClaim.collection.insertOne({ _id: slotId(workspaceId, month, slot), workspace_id: workspaceId, month, slot, run_id: runId, claimed_at: new Date() } as never);
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  async release(workspaceId: number, month: string, slot: number, runId: number): Promise<void> {
    await this.m.QuotaClaim.collection.deleteOne({ _id: slotId(workspaceId, month, slot), run_id: runId } as never);
  }
}

const slotId = (workspaceId: number, month: string, slot: number) => `${workspaceId}:${month}:${slot}`;

/** The quote ledger as uniquely keyed documents (`<scope>` for the budget, `<scope>:<n>` per batch). */
export class MongoQuoteLedger implements QuoteLedger {
  constructor(private readonly m: Models) {}

  private async insertOnce(doc: Record<string, unknown>): Promise<Record<string, unknown>> {
    const c = this.m.QuoteLedger.collection;
    try {
      await c.insertOne({ ...doc, recorded_at: new Date() } as never);
      return doc;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const first = await c.findOne({ _id: doc._id } as never);
      if (!first) throw err;
      return first as Record<string, unknown>;
    }
  }

  async budget(scope: string, wanted: () => Promise<number>): Promise<number> {
    const existing = await this.m.QuoteLedger.collection.findOne({ _id: scope } as never);
    if (existing) return existing.wanted as number;
    return (await this.insertOnce({ _id: scope, scope, wanted: await wanted() })).wanted as number;
  }

  async batches(scope: string): Promise<Map<number, RecordedBatch>> {
    const docs = await this.m.QuoteLedger.collection.find({ scope }).toArray();
    return new Map(docs.filter((d) => typeof d.n === 'number').map((d) => [d.n as number, { texts: (d.texts as string[] | undefined) ?? [], quotaHit: d.quota_hit === true }]));
  }

  async record(scope: string, n: number, batch: RecordedBatch): Promise<RecordedBatch> {
    const doc = await this.insertOnce({ _id: `${scope}:${n}`, scope, n, texts: batch.texts, quota_hit: batch.quotaHit });
    return { texts: (doc.texts as string[] | undefined) ?? [], quotaHit: doc.quota_hit === true };
  }
}
