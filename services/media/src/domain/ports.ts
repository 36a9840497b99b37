import type { MediaFacts } from '@spa/platforms';
import type { ObjectStorage } from '../storage/port.js';
import type { UploadKind } from '@spa/platforms';
import type { MediaRecord, VariantRecord } from './model.js';
import type { Preset } from './presets.js';

/** Metadata of stored files; every read names the key, which carries the workspace. */
export interface MediaStore {
  insert(record: MediaRecord): Promise<void>;
  find(key: string): Promise<MediaRecord | undefined>;
  markStored(key: string): Promise<void>;
  /** Keeps the facts probed from a stored file's bytes (a record stored before facts were kept). */
  saveFacts(key: string, facts: MediaFacts): Promise<void>;
  delete(key: string): Promise<void>;
  /** Claims the one PUT a presigned URL allows; false when another holds or used it. */
  claimPut(key: string): Promise<boolean>;
  releasePut(key: string): Promise<void>;
  /** Presigned reservations still `pending` whose URL expired before `before`, oldest first. */
  expiredPending(before: Date, limit: number): Promise<MediaRecord[]>;
  /** Inserts a `converting` variant record; false when one with its key exists (another caller makes it). */
  claimVariant(record: VariantRecord): Promise<boolean>;
  findVariant(key: string): Promise<VariantRecord | undefined>;
  /** The maker is still converting: renews its lease. */
  touchVariant(key: string, at: Date): Promise<void>;
  /** The variant's bytes are stored: it becomes `ready` with the facts probed from them. */
  variantReady(key: string, facts: MediaFacts): Promise<void>;
  /** Removes a variant record; with `aliveAt`, only while it still has that lease (a stale claim being taken over). */
  dropVariant(key: string, aliveAt?: Date): Promise<void>;
  /** The variants of a stored file. */
  variantsOf(sourceKey: string): Promise<VariantRecord[]>;
}

export interface AccountsPort {
  /** Whether the workspace has a connected (not disconnected) account on the platform. */
  hasConnectedAccount(workspaceId: number, platform: string): Promise<boolean>;
}

/** Reading and converting media files on local paths. */
export interface MediaTools {
  /** What a file is, from its bytes (an image from its header only: a decompression bomb is refused). */
  probe(path: string, sniffed: { contentType: string; kind: UploadKind }): Promise<MediaFacts>;
  /** Writes `input` (whose facts are `source`) converted to `preset` at `output`. */
  convert(input: string, source: MediaFacts, preset: Preset, output: string): Promise<void>;
}

export interface MediaDeps {
  store: MediaStore;
  storage: ObjectStorage;
  accounts: AccountsPort;
  tools: MediaTools;
  clock: { now(): Date };
  newId(): string;
  stagingDir: string;
  maxImagePixels: number;
  /** Largest image an upload may carry when it is to be converted (re-encoded under the platform's limit at publish). */
  maxImageBytes: number;
  presignTtlS: number;
  /** A variant being converted whose maker has not renewed its lease for this long belongs to a maker that died. */
  variantLeaseMs: number;
}
