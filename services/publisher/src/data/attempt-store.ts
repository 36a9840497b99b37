import { insertEach, updateEach, WriteBatcher } from '@spa/mongo';
import { Schema, type Connection } from 'mongoose';
import type { Attempt, AttemptKey, AttemptStore } from '../domain/ports.js';

const attemptId = (a: AttemptKey): string => `${a.postAccountId}:${a.n}`;

type Update = { filter: Record<string, unknown>; update: Record<string, unknown> };

/**
 * Two kinds of document, both found by `post_account_id`: the claim of an attempt (`<post account>:<n>`,
 * with `started_at`, renewed through `alive_at`) and, once the call answered, its outcome
 * (`<post account>:<n>:outcome`). Both are inserts of uniquely named documents: the first claim and the
 * first outcome win, and recording an outcome costs no read or update (on FerretDB an update is a read
 * and a write of the document, each a statement; an insert of many outcomes is one). Claims stored
 * before outcomes had their own documents carry the outcome in the claim, read the same way.
 */
interface AttemptDoc {
  _id: string;
  post_account_id: number;
  n: number;
  /** Present on a claim, absent on an outcome document. */
  started_at?: Date;
  alive_at?: Date | null;
  outcome?: Attempt['outcome'] | null;
  recorded_at?: Date;
}

/** Attempts in MongoDB: `_id` = `<post account>:<n>`, so a claim is a unique insert and one writer owns each attempt. */
export class MongoAttemptStore implements AttemptStore {
  private readonly model;

  /**
   * Claims and outcomes (both inserts), and lease renewals, each batched with the same writes of the
   * other jobs running at the same time (up to PUBLISHER_CONCURRENCY): one store command for many jobs'
   * targets, each caller still waiting for its own write and, for an insert, learning whether it won.
   */
  private readonly inserts: WriteBatcher<AttemptDoc, boolean>;
  private readonly updates: WriteBatcher<Update, void>;

  constructor(connection: Connection) {
    const schema = new Schema(
      { _id: String, post_account_id: { type: Number, required: true }, n: { type: Number, required: true }, started_at: Date, alive_at: Date, outcome: Schema.Types.Mixed, recorded_at: Date },
      { collection: 'attempts', versionKey: false },
    );
    schema.index({ post_account_id: 1, n: 1 });
    this.model = connection.model('Attempt', schema);
    this.inserts = new WriteBatcher((docs) => insertEach(this.model, docs));
    // By `_id` equality, one multi-document statement each (FerretDB: see updateEach).
    this.updates = new WriteBatcher(async (updates) => {
      await updateEach(this.model, updates);
      return updates.map(() => undefined);
    });
  }

  async attempts(postAccountId: number): Promise<Attempt[]> {
    const docs = await this.model.find({ post_account_id: postAccountId }).lean<AttemptDoc[]>();
    const outcomes = new Map(docs.filter((d) => !d.started_at && d.outcome).map((d) => [d.n, d.outcome!]));
    return docs
      .filter((d) => d.started_at)
      .sort((a, b) => a.n - b.n)
      .map((d) => ({ postAccountId: d.post_account_id, n: d.n, startedAt: d.started_at!, aliveAt: d.alive_at ?? undefined, outcome: d.outcome ?? outcomes.get(d.n) }));
  }

  claim(attempts: Attempt[]): Promise<boolean[]> {
    return Promise.all(attempts.map((a) => this.inserts.add({ _id: attemptId(a), post_account_id: a.postAccountId, n: a.n, started_at: a.startedAt })));
  }

  // A statement per attempt by `_id` (FerretDB 1.x does not push an `$in` down, so an update over the
  // ids would read every attempt).
  async touch(attempts: AttemptKey[], at: Date): Promise<void> {
    await Promise.all(attempts.map((a) => this.updates.add({ filter: { _id: attemptId(a), outcome: null }, update: { $set: { alive_at: at } } })));
  }

  /** An outcome already recorded stands (only the claimer records one; a repeat changes nothing). */
  async record(outcomes: Array<AttemptKey & { outcome: NonNullable<Attempt['outcome']> }>): Promise<void> {
    const at = new Date();
    await Promise.all(outcomes.map((o) => this.inserts.add({ _id: `${attemptId(o)}:outcome`, post_account_id: o.postAccountId, n: o.n, outcome: o.outcome, recorded_at: at })));
  }
}
