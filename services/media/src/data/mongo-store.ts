import { isDuplicateKeyError, type Connection } from '@spa/mongo';
import type { MediaRecord } from '../domain/model.js';
import type { MediaStore } from '../domain/ports.js';
import { registerModels, type MediaDoc, type MediaModels } from './models.js';

const toRecord = (d: MediaDoc): MediaRecord => ({
  key: d._id,
  workspaceId: d.workspace_id,
  platform: d.platform ?? undefined,
  contentType: d.content_type,
  sizeBytes: d.size_bytes,
  width: d.width,
  height: d.height,
  status: d.status,
  purpose: d.purpose ?? undefined,
  expiresAt: d.expires_at ?? undefined,
  createdAt: d.created_at,
});

export class MongoMediaStore implements MediaStore {
  private readonly models: MediaModels;

  constructor(connection: Connection) {
    this.models = registerModels(connection);
  }

  async insert(r: MediaRecord): Promise<void> {
    await this.models.Media.create({
      _id: r.key,
      workspace_id: r.workspaceId,
      platform: r.platform,
      content_type: r.contentType,
      size_bytes: r.sizeBytes,
      width: r.width,
      height: r.height,
      status: r.status,
      purpose: r.purpose,
      expires_at: r.expiresAt,
      created_at: r.createdAt,
    });
  }

  async find(key: string): Promise<MediaRecord | undefined> {
    const doc = await this.models.Media.findById(key).lean<MediaDoc>();
    return doc ? toRecord(doc) : undefined;
  }

  async markStored(key: string): Promise<void> {
    await this.models.Media.updateOne({ _id: key }, { $set: { status: 'stored' }, $unset: { expires_at: 1 } });
  }

  async delete(key: string): Promise<void> {
    await this.models.Media.deleteOne({ _id: key });
    await this.models.PutClaim.deleteOne({ _id: key });
  }

  async claimPut(key: string): Promise<boolean> {
    try {
      await this.models.PutClaim.create({ _id: key, claimed_at: new Date() });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  async releasePut(key: string): Promise<void> {
    await this.models.PutClaim.deleteOne({ _id: key });
  }

  async expiredPending(before: Date, limit: number): Promise<MediaRecord[]> {
    const docs = await this.models.Media.find({ status: 'pending', expires_at: { $lt: before } })
      .sort({ expires_at: 1 })
      .limit(limit)
      .lean<MediaDoc[]>();
    return docs.map(toRecord);
  }
}
