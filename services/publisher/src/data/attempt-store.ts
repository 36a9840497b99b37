import { insertEach } from '@spa/mongo';
import { Schema, type Connection } from 'mongoose';
import type { Attempt, AttemptKey, AttemptStore } from '../domain/ports.js';

const attemptId = (a: AttemptKey): string => `${a.postAccountId}:${a.n}`;

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

  claim(attempts: Attempt[]): Promise<boolean[]> {
    return insertEach(
      this.model,
      attempts.map((a) => ({ _id: attemptId(a), post_account_id: a.postAccountId, n: a.n, started_at: a.startedAt })),
    );
  }

  // Each in one command of single-document updates by `_id` (an equality every store serves from the
  // `_id` index; FerretDB 1.x does not push an `$in` down, so an updateMany over the ids would scan).
  async touch(attempts: AttemptKey[], at: Date): Promise<void> {
    if (!attempts.length) return;
    await this.model.bulkWrite(
      attempts.map((a) => ({ updateOne: { filter: { _id: attemptId(a), outcome: null }, update: { $set: { alive_at: at } } } })),
      { ordered: false },
    );
  }

  async record(outcomes: Array<AttemptKey & { outcome: NonNullable<Attempt['outcome']> }>): Promise<void> {
    if (!outcomes.length) return;
    await this.model.bulkWrite(
      outcomes.map((o) => ({ updateOne: { filter: { _id: attemptId(o) }, update: { $set: { outcome: o.outcome } } } })),
      { ordered: false },
    );
  }
}
