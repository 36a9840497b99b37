import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestBucket, LOCAL_S3 } from '../../../../tests/support/local-s3.js';
import { mediaTools } from '../convert/index.js';
import { MongoMediaStore } from '../data/mongo-store.js';
import { LocalDiskStorage } from '../storage/local-disk.js';
import type { ObjectStorage } from '../storage/port.js';
import { S3Storage } from '../storage/s3.js';
import type { MediaDeps } from './ports.js';
import { createPresignedUpload } from './presigned-upload.js';
import { PRESIGN_GRACE_MS, sweepExpiredUploads } from './sweep-uploads.js';

// On the real store, local disk and the local S3-compatible server (versitygw): never skipped.
let connection: Connection;
let dir: string;
let bucket: Awaited<ReturnType<typeof createTestBucket>>;
let s3: S3Storage;
let store: MongoMediaStore;
beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_media_sweep_${randomBytes(4).toString('hex')}`);
  store = new MongoMediaStore(connection);
  await syncIndexes(connection);
  dir = await mkdtemp(path.join(tmpdir(), 'sweep-'));
  bucket = await createTestBucket();
  s3 = new S3Storage({ ...LOCAL_S3, bucket: bucket.bucket, forcePathStyle: true, publicBaseUrl: undefined });
});
afterAll(async () => {
  s3?.close();
  await bucket?.remove();
  await connection?.dropDatabase();
  await connection?.close();
  await rm(dir, { recursive: true, force: true });
});

function depsAt(storage: ObjectStorage, now: Date): MediaDeps {
  return {
    store,
    storage,
    accounts: { hasConnectedAccount: async () => true },
    tools: mediaTools({ maxImagePixels: 1e8, probeTimeoutMs: 30_000, convertTimeoutMs: 60_000 }),
    clock: { now: () => now },
    newId: randomUUID,
    stagingDir: path.join(dir, 'staging'),
    maxImagePixels: 1e8,
    maxImageBytes: 50_000_000,
    presignTtlS: 3600,
    variantLeaseMs: 30_000,
  };
}

const reserve = (deps: MediaDeps, sizeBytes: number) => createPresignedUpload(deps, { workspaceId: 3, platform: 'facebook', contentType: 'video/mp4', sizeBytes }).then((r) => r.record);

describe('sweeping presigned reservations that were never used', () => {
  it('removes expired reservations (and any object they left) after the grace, and keeps the rest', async () => {
    const storage: ObjectStorage = new LocalDiskStorage(path.join(dir, 'objects'), 'http://127.0.0.1/media', 'test-signing-key-0123456789');
    const then = new Date('2026-01-01T00:00:00Z');
    const old = await reserve(depsAt(storage, then), 1000);
    const leftover = await reserve(depsAt(storage, then), 5);
    await storage.put(leftover.key, Readable.from([Buffer.from('abcde')]), 5, 'video/mp4');
    // Expired, but within the grace: an upload that started just before the expiry may still arrive.
    const recent = await reserve(depsAt(storage, new Date(then.getTime() + PRESIGN_GRACE_MS)), 1000);
    const now = new Date(then.getTime() + 3600_000 + PRESIGN_GRACE_MS + 1000);

    expect(await sweepExpiredUploads(depsAt(storage, now), 1)).toBe(2);
    expect(await store.find(old.key)).toBeUndefined();
    expect(await store.find(leftover.key)).toBeUndefined();
    expect(await storage.head(leftover.key)).toBeUndefined();
    expect((await store.find(recent.key))?.status).toBe('pending');
    // A second sweep (or another replica's) finds nothing more to do.
    expect(await sweepExpiredUploads(depsAt(storage, now))).toBe(0);
  });

  it('on S3, keeps as stored an upload whose object arrived whole, removes one that never did', async () => {
    // Earlier than the first test's reservation still in its grace, so only these two are due.
    const then = new Date('2025-12-01T00:00:00Z');
    const arrived = await reserve(depsAt(s3, then), 8);
    await s3.put(arrived.key, Readable.from([Buffer.from('12345678')]), 8, 'video/mp4');
    const missing = await reserve(depsAt(s3, then), 8);
    const now = new Date(then.getTime() + 3600_000 + PRESIGN_GRACE_MS + 1000);

    expect(await sweepExpiredUploads(depsAt(s3, now))).toBe(1);
    expect((await store.find(arrived.key))?.status).toBe('stored');
    expect(await s3.head(arrived.key)).toEqual({ size: 8 });
    expect(await store.find(missing.key)).toBeUndefined();
  });
});
