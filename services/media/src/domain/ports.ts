import type { ObjectStorage } from '../storage/port.js';
import type { MediaRecord } from './model.js';

/** Metadata of stored files; every read names the key, which carries the workspace. */
export interface MediaStore {
  insert(record: MediaRecord): Promise<void>;
  find(key: string): Promise<MediaRecord | undefined>;
  markStored(key: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Claims the one PUT a presigned URL allows; false when another holds or used it. */
  claimPut(key: string): Promise<boolean>;
  releasePut(key: string): Promise<void>;
  /** Presigned reservations still `pending` whose URL expired before `before`, oldest first. */
  expiredPending(before: Date, limit: number): Promise<MediaRecord[]>;
}

export interface AccountsPort {
  /** Whether the workspace has a connected (not disconnected) account on the platform. */
  hasConnectedAccount(workspaceId: number, platform: string): Promise<boolean>;
}

export interface MediaDeps {
  store: MediaStore;
  storage: ObjectStorage;
  accounts: AccountsPort;
  clock: { now(): Date };
  newId(): string;
  stagingDir: string;
  maxImagePixels: number;
  presignTtlS: number;
}
