import { isDuplicateKeyError, type Connection } from '@spa/mongo';
import { Schema } from 'mongoose';
import type { QuotaClaimStore } from '../../domain/quota/ports.js';

interface QuotaDoc {
  /** `<workspace id>:<local date>:<slot>` for a claim, `<workspace id>:<local date>:r<n>` for a refund: unique. */
  _id: string;
  kind: 'claim' | 'refund';
  workspace_id: number;
  local_date: string;
  /** The slot (claim) or the refund number. */
  n: number;
  recorded_at: Date;
  /** The consume call that holds a claimed slot. */
  owner?: string;
}

/** Registers the model of the quota documents on the connection (its indexes are created by syncIndexes). */
function registerQuotaModel(connection: Connection): void {
  if (connection.models['QuotaDoc']) return;
  const schema = new Schema<QuotaDoc>(
    {
      _id: String,
      kind: { type: String, required: true },
      workspace_id: { type: Number, required: true },
      local_date: { type: String, required: true },
      n: { type: Number, required: true },
      recorded_at: { type: Date, required: true },
      owner: String,
    },
    { collection: 'quota_claims', versionKey: false },
  );
  schema.index({ workspace_id: 1, local_date: 1, kind: 1 });
  // The purge of days that are over (no TTL index: FerretDB 1.x has none).
  schema.index({ recorded_at: 1 });
  connection.model<QuotaDoc>('QuotaDoc', schema);
}

/** Daily quota claims and refunds in the generation database: one document per unit. */
export class MongoQuotaClaims implements QuotaClaimStore {
  private readonly docs;

  constructor(connection: Connection) {
    registerQuotaModel(connection);
    this.docs = connection.collection<QuotaDoc>('quota_claims');
  }

  async claimedSlots(workspaceId: number, day: string): Promise<number[]> {
    const docs = await this.docs.find({ workspace_id: workspaceId, local_date: day, kind: 'claim' }, { projection: { n: 1 } }).toArray();
    return docs.map((d) => d.n);
  }

  countClaims(workspaceId: number, day: string): Promise<number> {
    return this.docs.countDocuments({ workspace_id: workspaceId, local_date: day, kind: 'claim' });
  }

  claim(workspaceId: number, day: string, slot: number, at: Date, owner: string): Promise<boolean> {
    return this.insert({ _id: `${workspaceId}:${day}:${slot}`, kind: 'claim', workspace_id: workspaceId, local_date: day, n: slot, recorded_at: at, owner });
  }

  async slotsOf(workspaceId: number, day: string, owner: string): Promise<number[]> {
    const docs = await this.docs.find({ workspace_id: workspaceId, local_date: day, kind: 'claim' }, { projection: { n: 1, owner: 1 } }).toArray();
    return docs.filter((d) => d.owner === owner).map((d) => d.n);
  }

  async release(workspaceId: number, day: string, slot: number, owner: string): Promise<boolean> {
    const result = await this.docs.deleteOne({ _id: `${workspaceId}:${day}:${slot}`, owner });
    return result.deletedCount === 1;
  }

  countRefunds(workspaceId: number, day: string): Promise<number> {
    return this.docs.countDocuments({ workspace_id: workspaceId, local_date: day, kind: 'refund' });
  }

  recordRefund(workspaceId: number, day: string, n: number, at: Date): Promise<boolean> {
    return this.insert({ _id: `${workspaceId}:${day}:r${n}`, kind: 'refund', workspace_id: workspaceId, local_date: day, n, recorded_at: at });
  }

  async purgeBefore(at: Date): Promise<number> {
    const result = await this.docs.deleteMany({ recorded_at: { $lt: at } });
    return result.deletedCount;
  }

  /** Inserts a uniquely keyed document; false when the key exists. */
  private async insert(doc: QuotaDoc): Promise<boolean> {
    try {
      await this.docs.insertOne(doc);
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }
}
