import type { MediaFacts } from '@spa/platforms';
import { Schema, type Connection } from 'mongoose';

export interface MediaDoc {
  _id: string;
  workspace_id: number;
  platform?: string | null;
  content_type: string;
  size_bytes: number;
  width: number;
  height: number;
  status: 'pending' | 'stored';
  purpose?: string | null;
  expires_at?: Date | null;
  created_at: Date;
  /** Probed from the bytes at upload; absent on records stored before facts were kept. */
  facts?: MediaFacts | null;
}

export interface VariantDoc {
  /** The variant's key: `<source key>.variants/<preset id>.<ext>`. */
  _id: string;
  source_key: string;
  preset_id: string;
  status: 'converting' | 'ready';
  facts?: MediaFacts | null;
  created_at: Date;
  alive_at: Date;
}

/** Mongoose schemas of the media database. */
export function registerModels(connection: Connection) {
  const mediaSchema = new Schema<MediaDoc>(
    {
      // The r2_key itself: unique by construction, and the lookup of every read.
      _id: String,
      workspace_id: { type: Number, required: true },
      platform: String,
      content_type: { type: String, required: true },
      size_bytes: { type: Number, required: true },
      width: { type: Number, required: true },
      height: { type: Number, required: true },
      status: { type: String, required: true },
      purpose: String,
      expires_at: Date,
      created_at: { type: Date, required: true },
      facts: { type: Schema.Types.Mixed },
    },
    { collection: 'media', versionKey: false },
  );
  mediaSchema.index({ workspace_id: 1, created_at: -1 });
  // The sweep of presigned reservations that were never used.
  mediaSchema.index({ status: 1, expires_at: 1 });

  // One document per presigned key being received: the unique _id makes the one allowed PUT exclusive
  // (FerretDB does not apply concurrent updates of one document atomically; inserts of one _id are).
  const putClaimSchema = new Schema({ _id: String, claimed_at: { type: Date, required: true } }, { collection: 'put_claims', versionKey: false });

  // One document per converted variant: the unique _id (the variant's key) makes one caller its maker.
  const variantSchema = new Schema<VariantDoc>(
    {
      _id: String,
      source_key: { type: String, required: true },
      preset_id: { type: String, required: true },
      status: { type: String, required: true },
      facts: { type: Schema.Types.Mixed },
      created_at: { type: Date, required: true },
      alive_at: { type: Date, required: true },
    },
    { collection: 'media_variants', versionKey: false },
  );
  variantSchema.index({ source_key: 1 });

  return {
    Media: connection.model<MediaDoc>('Media', mediaSchema),
    PutClaim: connection.model('PutClaim', putClaimSchema),
    Variant: connection.model<VariantDoc>('MediaVariant', variantSchema),
  };
}

export type MediaModels = ReturnType<typeof registerModels>;
