import { isDuplicateKeyError, type Connection } from '@spa/mongo';
import { Schema } from 'mongoose';
import type { RecycleClaim, RecycleStore } from '../domain/recycle-ports.js';

interface RecycleDoc {
  _id: string;
  workspace_id: number;
  original_id: number;
  source_post_id: number;
  new_post_id: number;
  sequence: number;
  body: string;
  scheduled_at?: Date | null;
  claimed_at: Date;
  created_at?: Date | null;
}

const toClaim = (d: RecycleDoc): RecycleClaim => ({
  id: d._id,
  workspaceId: d.workspace_id,
  originalId: d.original_id,
  sourcePostId: d.source_post_id,
  newPostId: d.new_post_id,
  sequence: d.sequence,
  body: d.body,
  scheduledAt: d.scheduled_at ?? null,
  claimedAt: d.claimed_at,
  createdAt: d.created_at ?? null,
});

/** Recycle claims (`recycles`): one per posting of an evergreen series, `_id` = the posting. */
export class MongoRecycleStore implements RecycleStore {
  private readonly model;

  constructor(connection: Connection) {
    const schema = new Schema(
      {
        _id: String,
        workspace_id: { type: Number, required: true },
        original_id: { type: Number, required: true },
        source_post_id: { type: Number, required: true },
        new_post_id: { type: Number, required: true },
        sequence: { type: Number, required: true },
        body: { type: String, required: true },
        scheduled_at: Date,
        claimed_at: { type: Date, required: true },
        created_at: Date,
      },
      { collection: 'recycles', versionKey: false },
    );
    // A series' history is read by equality on its original: a handful of documents.
    schema.index({ workspace_id: 1, original_id: 1 });
    this.model = connection.model('Recycle', schema);
  }

  async claim(c: RecycleClaim): Promise<RecycleClaim> {
    try {
      await this.model.create({
        _id: c.id,
        workspace_id: c.workspaceId,
        original_id: c.originalId,
        source_post_id: c.sourcePostId,
        new_post_id: c.newPostId,
        sequence: c.sequence,
        body: c.body,
        scheduled_at: c.scheduledAt,
        claimed_at: c.claimedAt,
      });
      return c;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const held = await this.get(c.id);
      if (!held) throw err;
      return held;
    }
  }

  async get(id: string): Promise<RecycleClaim | null> {
    const doc = await this.model.findById(id).lean<RecycleDoc>();
    return doc ? toClaim(doc) : null;
  }

  async markCreated(id: string, at: Date): Promise<void> {
    // Only ever set (to the first writer's time or a later one): racing writers agree it is set.
    await this.model.updateOne({ _id: id }, { $set: { created_at: at } });
  }

  async history(workspaceId: number, originalId: number): Promise<RecycleClaim[]> {
    const docs = await this.model.find({ workspace_id: workspaceId, original_id: originalId }).lean<RecycleDoc[]>();
    return docs.map(toClaim).sort((a, b) => a.sequence - b.sequence);
  }
}
