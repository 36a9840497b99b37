import { insertEach, updateEach, WriteBatcher } from '@spa/mongo';
import { Schema, type Connection } from 'mongoose';
import type { Attempt, AttemptKey, AttemptStore } from '../domain/ports.js';

const attemptId = (a: AttemptKey): string => `${a.postAccountId}:${a.n}`;

type Update = { filter: Record<string, unknown>; update: Record<string, unknown> };

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

  /**
   * Claims and attempt updates, each batched with the same writes of the other jobs running at the
   * same time (up to PUBLISHER_CONCURRENCY): one store command for many jobs' targets, each caller
   * still waiting for its own write and, for a claim, learning whether its insert won.
   */
  private readonly claims: WriteBatcher<AttemptDoc, boolean>;
  private readonly updates: WriteBatcher<Update, void>;

  constructor(connection: Connection) {
    const schema = new Schema(
      { _id: String, post_account_id: { type: Number, required: true }, n: { type: Number, required: true }, started_at: { type: Date, required: true }, alive_at: Date, outcome: Schema.Types.Mixed },
      { collection: 'attempts', versionKey: false },
    );
    schema.index({ post_account_id: 1, n: 1 });
    this.model = connection.model('Attempt', schema);
    this.claims = new WriteBatcher((docs) => insertEach(this.model, docs));
    // By `_id` equality, one multi-document statement each (FerretDB: see updateEach).
    this.updates = new WriteBatcher(async (updates) => {
      await updateEach(this.model, updates);
      return updates.map(() => undefined);
    });
  }

  async attempts(postAccountId: number): Promise<Attempt[]> {
    const docs = await this.model.find({ post_account_id: postAccountId }).sort({ n: 1 }).lean<AttemptDoc[]>();
    return docs.map((d) => ({ postAccountId: d.post_account_id, n: d.n, startedAt: d.started_at, aliveAt: d.alive_at ?? undefined, outcome: d.outcome ?? undefined }));
  }

  claim(attempts: Attempt[]): Promise<boolean[]> {
    return Promise.all(attempts.map((a) => this.claims.add({ _id: attemptId(a), post_account_id: a.postAccountId, n: a.n, started_at: a.startedAt })));
  }

  // A statement per attempt by `_id` (FerretDB 1.x does not push an `$in` down, so an update over the
  // ids would read every attempt).
  async touch(attempts: AttemptKey[], at: Date): Promise<void> {
    await Promise.all(attempts.map((a) => this.updates.add({ filter: { _id: attemptId(a), outcome: null }, update: { $set: { alive_at: at } } })));
  }

  async record(outcomes: Array<AttemptKey & { outcome: NonNullable<Attempt['outcome']> }>): Promise<void> {
    await Promise.all(outcomes.map((o) => this.updates.add({ filter: { _id: attemptId(o) }, update: { $set: { outcome: o.outcome } } })));
  }
}
