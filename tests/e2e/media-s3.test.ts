import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, startStack, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { expectError } from '../support/expect-error.js';
import { createTestBucket, LOCAL_S3 } from '../support/local-s3.js';
import { mp4, png } from '../support/media-files.js';

// The whole path with S3 storage: gateway → media service → the real S3-compatible server
// (versitygw, started by scripts/infra). Never skipped: a missing server fails the test.
let stack: Stack;
let ws: TestWorkspace;
let bucket: Awaited<ReturnType<typeof createTestBucket>>;
const s3 = new S3Client({ endpoint: LOCAL_S3.endpoint, region: LOCAL_S3.region, forcePathStyle: true, credentials: LOCAL_S3 });
beforeAll(async () => {
  bucket = await createTestBucket();
  stack = await startStack({
    mediaEnv: {
      MEDIA_STORAGE: 's3',
      S3_ENDPOINT: LOCAL_S3.endpoint,
      S3_REGION: LOCAL_S3.region,
      S3_BUCKET: bucket.bucket,
      S3_ACCESS_KEY_ID: LOCAL_S3.accessKeyId,
      S3_SECRET_ACCESS_KEY: LOCAL_S3.secretAccessKey,
    },
  });
  ws = await createWorkspace(stack);
});
afterAll(async () => {
  await stack?.stop();
  await bucket?.remove();
  s3.destroy();
});

const call = (p: string, opts: HttpOptions = {}) => stack.api(p, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
const inBucket = (key: string) =>
  s3.send(new HeadObjectCommand({ Bucket: bucket.bucket, Key: key })).then(
    (o) => ({ size: o.ContentLength, type: o.ContentType }),
    () => undefined,
  );

describe('media on S3 storage', () => {
  it('stores an upload in the bucket; url is a signed GET that serves it; the publisher path (/media/<key>) too', async () => {
    const bytes = await png(40, 30);
    const res = await call('/media/uploads', { body: { platform: 'pinterest', content_type: 'image/png', media: bytes.toString('base64') } });
    expect(res.status, res.text).toBe(201);
    expect(await inBucket(res.json.r2_key)).toEqual({ size: bytes.length, type: 'image/png' });
    expect(res.json.url).toContain(`${LOCAL_S3.endpoint}/${bucket.bucket}/${res.json.r2_key}?`);
    const direct = await fetch(res.json.url);
    expect(Buffer.from(await direct.arrayBuffer()).equals(bytes)).toBe(true);
    const relayed = await fetch(`${stack.baseUrl}/media/${res.json.r2_key}`);
    expect(relayed.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await relayed.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('a refused upload leaves nothing in the bucket', async () => {
    const count = async () => (await s3.send(new ListObjectsV2Command({ Bucket: bucket.bucket }))).KeyCount ?? 0;
    const before = await count();
    const res = await call('/media/uploads', { body: { platform: 'twitter', content_type: 'image/png', media: Buffer.from('<svg/>').toString('base64') } });
    expectError(res, 422, 'INVALID_PARAMETERS');
    // Images over a platform's limit are shrunk at publish; a video over Discord's 10 MiB is refused as it arrives.
    const tooBig = await call('/media/uploads', { body: { platform: 'discord', content_type: 'video/mp4', media: (await mp4(11 * 1024 * 1024)).toString('base64') } });
    expectError(tooBig, 413, 'PAYLOAD_TOO_LARGE');
    expect(await count()).toBe(before);
  });

  it('presigned Facebook video: the client PUTs straight to S3, bound to size and type', async () => {
    const video = await mp4(100_000);
    const res = await call(`/facebook/uploads/presign?content_type=video/mp4&file_size=${video.length}`);
    expect(res.status, res.text).toBe(200);
    const { upload_url: url, r2_key: key } = res.json;
    expect(url.startsWith(`${LOCAL_S3.endpoint}/${bucket.bucket}/${key}?`)).toBe(true);
    expect((await fetch(url, { method: 'PUT', body: video.subarray(1), headers: { 'content-type': 'video/mp4' } })).status).toBe(403);
    expect((await fetch(`${stack.baseUrl}/media/${key}`)).status).toBe(404);
    const ok = await fetch(url, { method: 'PUT', body: video, headers: { 'content-type': 'video/mp4' } });
    expect(ok.status).toBe(200);
    const served = await fetch(`${stack.baseUrl}/media/${key}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(video)).toBe(true);
  });

  it('Tumblr delete removes the object from the bucket', async () => {
    await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'tumblr', username: 'tumblr-user', sandbox: true });
    const res = await call('/tumblr/media_uploads', { body: { content_type: 'image/png', media: (await png()).toString('base64') } });
    expect(res.status, res.text).toBe(201);
    expect(await inBucket(res.json.r2_key)).toBeDefined();
    const deleted = await call(`/tumblr/media_uploads/${encodeURIComponent(res.json.r2_key)}`, { method: 'DELETE' });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await inBucket(res.json.r2_key)).toBeUndefined();
  });
});
