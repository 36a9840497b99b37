import { isDuplicateKeyError } from '@spa/mongo';
import { Schema, type Connection } from 'mongoose';
import type { Attempt, AttemptStore } from '../domain/ports.js';

interface AttemptDoc {
  _id: string;
  post_account_id: number;
  n: number;
  started_at: Date;
  alive_at?: Date | null;
  outcome?: Attempt['outcome'] | null;
}

/** Attempts in MongoDB: `_id` = `<post account>:<n>`, so a claim is a unique insert and one writer owns each attempt. */
export class MongoAttemptStore implements AttemptStore {
  private readonly model;

  constructor(connection: Connection) {
    const schema = new Schema(
      { _id: String, post_account_id: { type: Number, required: true }, n: { type: Number, required: true }, started_at: { type: Date, required: true }, alive_at: Date, outcome: Schema.Types.Mixed },
      { collection: 'attempts', versionKey: false },
    );
    schema.index({ post_account_id: 1, n: 1 });
    this.model = connection.model('Attempt', schema);
  }

  async attempts(postAccountId: number): Promise<Attempt[]> {
    const docs = await this.model.find({ post_account_id: postAccountId }).sort({ n: 1 }).lean<AttemptDoc[]>();
    return docs.map((d) => ({ postAccountId: d.post_account_id, n: d.n, startedAt: d.started_at, aliveAt: d.alive_at ?? undefined, outcome: d.outcome ?? undefined }));
  }

  async claim(a: Attempt): Promise<boolean> {
    try {
      await this.model.create({ _id: `${a.postAccountId}:${a.n}`, post_account_id: a.postAccountId, n: a.n, started_at: a.startedAt });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  async touch(postAccountId: number, n: number, at: Date): Promise<void> {
    await this.model.updateOne({ _id: `${postAccountId}:${n}`, outcome: null }, { $set: { alive_at: at } });
  }

  async record(postAccountId: number, n: number, outcome: NonNullable<Attempt['outcome']>): Promise<void> {
    await this.model.updateOne({ _id: `${postAccountId}:${n}` }, { $set: { outcome } });
  }
}
