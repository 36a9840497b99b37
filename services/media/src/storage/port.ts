import type { Readable } from 'node:stream';

/** A presigned upload's binding: the URL accepts exactly these bytes until `expiresAt`. */
export interface PresignedPut {
  key: string;
  sizeBytes: number;
  contentType: string;
  expiresAt: Date;
}

/**
 * Where media bytes live. Two implementations: local disk (the local stack's default) and any
 * S3-compatible store. Keys come from the service (never from a client).
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /** Stores `size` bytes from `body`; nothing is visible under `key` unless the whole body arrived. */
  put(key: string, body: Readable, size: number, contentType: string): Promise<void>;
  /** Streams an object, or undefined when there is none. */
  get(key: string): Promise<{ body: Readable; size: number } | undefined>;
  /** Size of an object, or undefined when there is none. */
  head(key: string): Promise<{ size: number } | undefined>;
  /** Removes an object (no error when it is already gone). */
  delete(key: string): Promise<void>;
  /** The address a platform (or anyone holding it) fetches the object from. */
  publicUrl(key: string): Promise<string>;
  /** A URL that accepts one PUT of exactly the bound size and type until it expires. */
  presignPut(put: PresignedPut): Promise<string>;
}
