import type { MediaFacts } from '@spa/platforms';

/** A stored (or, for presigned uploads, reserved) file. */
export interface MediaRecord {
  key: string;
  workspaceId: number;
  /** The platform it was uploaded for; undefined for objects stored by other services. */
  platform: string | undefined;
  contentType: string;
  sizeBytes: number;
  width: number;
  height: number;
  /** `pending` until a presigned upload arrives. */
  status: 'pending' | 'stored';
  purpose: string | undefined;
  /** Presigned uploads: when the URL stops working. */
  expiresAt: Date | undefined;
  createdAt: Date;
  /** What the file is, probed from its bytes at upload; undefined for a record stored before facts were kept (probed when first prepared). */
  facts?: MediaFacts | undefined;
}

/**
 * A converted copy of a stored file for one preset, stored beside it (`<key>.variants/<preset id>.<ext>`).
 * Inserted once, `converting`, by whoever makes it (the unique key makes that one caller); `ready` once its
 * bytes are stored. A `converting` record whose maker stopped renewing it (`aliveAt` older than the lease)
 * belongs to a maker that died, and may be taken over.
 */
export interface VariantRecord {
  key: string;
  sourceKey: string;
  presetId: string;
  status: 'converting' | 'ready';
  /** Set once ready. */
  facts?: MediaFacts | undefined;
  createdAt: Date;
  aliveAt: Date;
}
