import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from './s3.js';
import { createTestBucket, LOCAL_S3 } from '../../../../tests/support/local-s3.js';

// Against the real S3-compatible server started by scripts/infra (versitygw): never skipped.
let bucket: Awaited<ReturnType<typeof createTestBucket>>;
let storage: S3Storage;
beforeAll(async () => {
  bucket = await createTestBucket();
  storage = new S3Storage({ ...LOCAL_S3, bucket: bucket.bucket, forcePathStyle: true, publicBaseUrl: undefined });
});
afterAll(async () => {
  storage?.close();
  await bucket?.remove();
});

const key = () => `ws/7/2026/05/${crypto.randomUUID()}.bin`;

describe('S3Storage on a real S3-compatible server', () => {
  it('puts a stream, heads, gets and deletes it', async () => {
    const k = key();
    const bytes = randomBytes(300_000);
    await storage.put(k, Readable.from([bytes.subarray(0, 100_000), bytes.subarray(100_000)]), bytes.length, 'image/png');
    expect(await storage.head(k)).toEqual({ size: bytes.length });
    const got = await storage.get(k);
    const chunks: Buffer[] = [];
    for await (const c of got!.body) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    await storage.delete(k);
    expect(await storage.head(k)).toBeUndefined();
    expect(await storage.get(k)).toBeUndefined();
  });

  it('answers a signed GET url that serves the object', async () => {
    const k = key();
    const bytes = randomBytes(1000);
    await storage.put(k, Readable.from([bytes]), bytes.length, 'image/jpeg');
    const url = await storage.publicUrl(k);
    expect(url).toContain('X-Amz-Signature=');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await fetch(url.replace(/X-Amz-Signature=\w+/, 'X-Amz-Signature=00'))).status).toBe(403);
  });

  it('presigns a PUT bound to its size and type: another size or type is refused', async () => {
    const k = key();
    const bytes = randomBytes(5000);
    const url = await storage.presignPut({ key: k, sizeBytes: bytes.length, contentType: 'video/mp4', expiresAt: new Date(Date.now() + 60_000) });
    const wrongType = await fetch(url, { method: 'PUT', body: bytes, headers: { 'content-type': 'video/quicktime' } });
    expect(wrongType.status).toBe(403);
    const wrongSize = await fetch(url, { method: 'PUT', body: bytes.subarray(0, 4000), headers: { 'content-type': 'video/mp4' } });
    expect(wrongSize.status).toBe(403);
    expect(await storage.head(k)).toBeUndefined();
    const ok = await fetch(url, { method: 'PUT', body: bytes, headers: { 'content-type': 'video/mp4' } });
    expect(ok.status, await ok.text()).toBe(200);
    expect(await storage.head(k)).toEqual({ size: bytes.length });
  });

  it('refuses an expired presigned PUT', async () => {
    const k = key();
    const url = await storage.presignPut({ key: k, sizeBytes: 10, contentType: 'video/mp4', expiresAt: new Date(Date.now() + 1000) });
    await new Promise((r) => setTimeout(r, 2100));
    const res = await fetch(url, { method: 'PUT', body: Buffer.alloc(10), headers: { 'content-type': 'video/mp4' } });
    expect(res.status).toBe(403);
    expect(await storage.head(k)).toBeUndefined();
  });
});
