import { deleteByBatch, insertEach, inWaves, WriteBatcher } from '@spa/mongo';
import { Schema, type Connection } from 'mongoose';
import type { MetricRetryStore, PendingRetry } from '../metrics/retry-lane.js';

interface RetryDoc {
  _id: string;
  workspace_id: number;
  platform: string;
  due_at: Date;
  /** The epoch second of `due_at`: what the lane reads by (an equality, which FerretDB pushes down; a range it would not). */
  due_second: number;
  /** The job's wire form, base64. */
  job: string;
}

const toRetry = (d: RetryDoc): PendingRetry => ({ id: d._id, workspaceId: d.workspace_id, platform: d.platform, dueAt: d.due_at, job: Buffer.from(d.job, 'base64') });

/**
 * Metric fetches waiting to be tried again (the publisher's retry lane), one document per try: only
 * the pending ones are kept (a retry sent again is deleted), so the collection stays as small as the
 * backlog of retries. Inserts of concurrent fetches go together in one command; deletes of one pass too.
 */
export class MongoMetricRetryStore implements MetricRetryStore {
  private readonly model;
  private readonly inserts: WriteBatcher<RetryDoc, boolean>;

  constructor(connection: Connection) {
    const schema = new Schema(
      {
        _id: String,
        workspace_id: { type: Number, required: true },
        platform: { type: String, required: true },
        due_at: { type: Date, required: true },
        due_second: { type: Number, required: true },
        job: { type: String, required: true },
      },
      { collection: 'metric_retries', versionKey: false },
    );
    schema.index({ due_second: 1 });
    this.model = connection.model('MetricRetry', schema);
    this.inserts = new WriteBatcher((docs) => insertEach(this.model, docs), { maxBatch: 200, maxInFlight: 2 });
  }

  async add(r: PendingRetry): Promise<void> {
    // A duplicate id is the same try recorded before: nothing to add.
    await this.inserts.add({
      _id: r.id,
      workspace_id: r.workspaceId,
      platform: r.platform,
      due_at: r.dueAt,
      due_second: Math.floor(r.dueAt.getTime() / 1000),
      job: Buffer.from(r.job).toString('base64'),
    });
  }

  async dueInSeconds(seconds: number[]): Promise<PendingRetry[]> {
    const found = await inWaves(seconds, 8, (s) => this.model.find({ due_second: s }).lean<RetryDoc[]>());
    return found.flat().map(toRetry);
  }

  async all(): Promise<PendingRetry[]> {
    return (await this.model.find({}).lean<RetryDoc[]>()).map(toRetry);
  }

  async remove(ids: string[]): Promise<void> {
    await deleteByBatch(
      this.model,
      ids.map((_id) => ({ _id })),
    );
  }
}
