import { isDuplicateKeyError, type Connection } from '@spa/mongo';
import type { MediaFacts } from '@spa/platforms';
import type { MediaRecord, VariantRecord } from '../domain/model.js';
import type { MediaStore } from '../domain/ports.js';
import { registerModels, type MediaDoc, type MediaModels, type VariantDoc } from './models.js';

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
  facts: d.facts ?? undefined,
});

const toVariant = (d: VariantDoc): VariantRecord => ({
  key: d._id,
  sourceKey: d.source_key,
  presetId: d.preset_id,
  status: d.status,
  facts: d.facts ?? undefined,
  createdAt: d.created_at,
  aliveAt: d.alive_at,
});

const created = async (create: () => Promise<unknown>): Promise<boolean> => {
  try {
    await create();
    return true;
  } catch (err) {
    if (isDuplicateKeyError(err)) return false;
    throw err;
  }
};

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
      ...(r.facts ? { facts: r.facts } : {}),
    });
  }

  async find(key: string): Promise<MediaRecord | undefined> {
    const doc = await this.models.Media.findById(key).lean<MediaDoc>();
    return doc ? toRecord(doc) : undefined;
  }

  async markStored(key: string): Promise<void> {
    await this.models.Media.updateOne({ _id: key }, { $set: { status: 'stored' }, $unset: { expires_at: 1 } });
  }

  async saveFacts(key: string, facts: MediaFacts): Promise<void> {
    await this.models.Media.updateOne({ _id: key }, { $set: { facts } });
  }

  async delete(key: string): Promise<void> {
    await this.models.Media.deleteOne({ _id: key });
    await this.models.PutClaim.deleteOne({ _id: key });
  }

  claimPut(key: string): Promise<boolean> {
    return created(() => this.models.PutClaim.create({ _id: key, claimed_at: new Date() }));
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

  claimVariant(v: VariantRecord): Promise<boolean> {
    return created(() => this.models.Variant.create({ _id: v.key, source_key: v.sourceKey, preset_id: v.presetId, status: v.status, created_at: v.createdAt, alive_at: v.aliveAt }));
  }

  async findVariant(key: string): Promise<VariantRecord | undefined> {
    const doc = await this.models.Variant.findById(key).lean<VariantDoc>();
    return doc ? toVariant(doc) : undefined;
  }

  async touchVariant(key: string, at: Date): Promise<void> {
    await this.models.Variant.updateOne({ _id: key, status: 'converting' }, { $set: { alive_at: at } });
  }

  async variantReady(key: string, facts: MediaFacts): Promise<void> {
    await this.models.Variant.updateOne({ _id: key }, { $set: { status: 'ready', facts } });
  }

  async dropVariant(key: string, aliveAt?: Date): Promise<void> {
    await this.models.Variant.deleteOne(aliveAt ? { _id: key, status: 'converting', alive_at: aliveAt } : { _id: key });
  }

  async variantsOf(sourceKey: string): Promise<VariantRecord[]> {
    const docs = await this.models.Variant.find({ source_key: sourceKey }).lean<VariantDoc[]>();
    return docs.map(toVariant);
  }
}
