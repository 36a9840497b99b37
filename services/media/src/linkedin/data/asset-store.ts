import { Schema, type Connection } from 'mongoose';
import type { LinkedInAsset, LinkedInAssetKind } from '../domain/model.js';
import type { LinkedInAssetStore } from '../domain/ports.js';

interface LinkedInAssetDoc {
  /** The asset URN: LinkedIn's URNs are unique, so a URN is recorded once. */
  _id: string;
  workspace_id: number;
  social_account_id: number;
  kind: LinkedInAssetKind;
  content_type: string;
  size_bytes: number;
  owner_urn: string;
  created_at: Date;
}

/** Registers the `linkedin_assets` collection on the media database (call before syncIndexes). */
export function registerLinkedInAssetModel(connection: Connection) {
  const schema = new Schema<LinkedInAssetDoc>(
    {
      _id: String,
      workspace_id: { type: Number, required: true },
      social_account_id: { type: Number, required: true },
      kind: { type: String, required: true, enum: ['image', 'video'] },
      content_type: { type: String, required: true },
      size_bytes: { type: Number, required: true },
      owner_urn: { type: String, required: true },
      created_at: { type: Date, required: true },
    },
    { collection: 'linkedin_assets', versionKey: false },
  );
  schema.index({ workspace_id: 1, social_account_id: 1, created_at: -1 });
  return connection.model<LinkedInAssetDoc>('LinkedInAsset', schema);
}

const toAsset = (d: LinkedInAssetDoc): LinkedInAsset => ({
  assetUrn: d._id,
  workspaceId: d.workspace_id,
  socialAccountId: d.social_account_id,
  kind: d.kind,
  contentType: d.content_type,
  sizeBytes: d.size_bytes,
  ownerUrn: d.owner_urn,
  createdAt: d.created_at,
});

export class MongoLinkedInAssetStore implements LinkedInAssetStore {
  private readonly model;

  constructor(connection: Connection) {
    this.model = registerLinkedInAssetModel(connection);
  }

  async insert(a: LinkedInAsset): Promise<void> {
    await this.model.create({
      _id: a.assetUrn,
      workspace_id: a.workspaceId,
      social_account_id: a.socialAccountId,
      kind: a.kind,
      content_type: a.contentType,
      size_bytes: a.sizeBytes,
      owner_urn: a.ownerUrn,
      created_at: a.createdAt,
    });
  }

  async find(assetUrn: string): Promise<LinkedInAsset | undefined> {
    const doc = await this.model.findById(assetUrn).lean<LinkedInAssetDoc>();
    return doc ? toAsset(doc) : undefined;
  }

  async get(workspaceId: number, assetUrn: string): Promise<LinkedInAsset | undefined> {
    const doc = await this.model.findOne({ _id: assetUrn, workspace_id: workspaceId }).lean<LinkedInAssetDoc>();
    return doc ? toAsset(doc) : undefined;
  }
}
