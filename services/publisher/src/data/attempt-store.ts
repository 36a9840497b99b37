import { insertEach, updateEach } from '@spa/mongo';
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

  // One command each, a statement per attempt by `_id` (FerretDB 1.x does not push an `$in` down, so
  // an update over the ids would read every attempt).
  async touch(attempts: AttemptKey[], at: Date): Promise<void> {
    await updateEach(
      this.model,
      attempts.map((a) => ({ filter: { _id: attemptId(a), outcome: null }, update: { $set: { alive_at: at } } })),
    );
  }

  async record(outcomes: Array<AttemptKey & { outcome: NonNullable<Attempt['outcome']> }>): Promise<void> {
    await updateEach(
      this.model,
      outcomes.map((o) => ({ filter: { _id: attemptId(o) }, update: { $set: { outcome: o.outcome } } })),
    );
  }
}
