import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { AppError, invalidParameters } from '@spa/errors';
import { UPLOAD_PLATFORMS, type UploadPlatform } from '@spa/platforms';
import { CAPABILITIES } from '@spa/platforms';
import { canonicalType, sniffType, SNIFF_BYTES } from './inspect.js';
import { newMediaKey } from './keys.js';
import type { MediaRecord } from './model.js';
import type { MediaDeps } from './ports.js';

const VIDEO_EXT: Record<string, string> = { 'video/mp4': 'mp4', 'video/quicktime': 'mov', 'video/webm': 'webm', 'video/x-m4v': 'm4v' };

/**
 * Reserves a key for a video the client PUTs straight to storage, and answers a URL bound to that
 * key, size and type that expires after the configured time. Only the platform's video types and sizes.
 */
export async function createPresignedUpload(
  deps: MediaDeps,
  input: { workspaceId: number; platform: string; contentType: string; sizeBytes: number },
): Promise<{ uploadUrl: string; record: MediaRecord }> {
  if (!(UPLOAD_PLATFORMS as readonly string[]).includes(input.platform)) throw invalidParameters([`platform: must be one of ${UPLOAD_PLATFORMS.join(', ')}`]);
  // The presigned route exists for the platform's videos, which its base64 route does not take.
  const rule = CAPABILITIES[input.platform as UploadPlatform].media?.video;
  const contentType = canonicalType(input.contentType);
  const problems: string[] = [];
  if (!rule) problems.push(`content_type: ${input.platform} takes no video`);
  // A video container the platform does not take as it is but the pipeline converts (WebM, MOV) is taken too.
  else if (!VIDEO_EXT[contentType]) problems.push(`content_type: must be a video type: ${[...new Set([...rule.content_types, ...Object.keys(VIDEO_EXT)])].join(', ')}`);
  if (!Number.isSafeInteger(input.sizeBytes) || input.sizeBytes <= 0) problems.push('file_size: must be a positive integer (bytes)');
  else if (rule && input.sizeBytes > rule.max_bytes) problems.push(`file_size: at most ${rule.max_bytes} bytes for ${input.platform} videos`);
  if (problems.length) throw invalidParameters(problems);
  const now = deps.clock.now();
  const record: MediaRecord = {
    key: newMediaKey(input.workspaceId, now, deps.newId(), VIDEO_EXT[contentType]!),
    workspaceId: input.workspaceId,
    platform: input.platform,
    contentType,
    sizeBytes: input.sizeBytes,
    width: 0,
    height: 0,
    status: 'pending',
    purpose: undefined,
    expiresAt: new Date(now.getTime() + deps.presignTtlS * 1000),
    createdAt: now,
  };
  await deps.store.insert(record);
  const uploadUrl = await deps.storage.presignPut({ key: record.key, sizeBytes: record.sizeBytes, contentType, expiresAt: record.expiresAt! });
  return { uploadUrl, record };
}

/** Passes exactly `size` bytes through, failing on more, and checks the first bytes are the bound type. */
class BoundUpload extends Transform {
  private seen = 0;
  private head: Buffer[] = [];
  private headBytes = 0;
  private sniffed = false;

  constructor(
    private readonly size: number,
    private readonly contentType: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.size) return done(new AppError('PAYLOAD_TOO_LARGE', `the upload runs past the signed size of ${this.size} bytes`));
    if (this.sniffed) return done(null, chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < SNIFF_BYTES && this.seen < this.size) return done();
    this.check().then(() => done(null, Buffer.concat(this.head.splice(0))), done);
  }

  override _flush(done: TransformCallback): void {
    if (this.seen !== this.size) return done(new AppError('INVALID_PARAMETERS', `the upload carried ${this.seen} bytes, not the signed ${this.size}`));
    done();
  }

  private async check(): Promise<void> {
    this.sniffed = true;
    const found = await sniffType(Buffer.concat(this.head));
    if (found.contentType !== this.contentType) throw invalidParameters([`the bytes are ${found.contentType}, not the signed ${this.contentType}`]);
  }
}

/**
 * Receives the one PUT a presigned URL allows (local disk; the signature was checked by the caller):
 * exactly the reserved size, of the reserved type, once. A failed PUT can be retried with the URL.
 */
export async function receivePresignedPut(deps: MediaDeps, key: string, body: Readable): Promise<MediaRecord> {
  const record = await deps.store.find(key);
  if (!record) throw new AppError('NOT_FOUND', 'No upload is reserved under this key');
  if (record.status !== 'pending') throw new AppError('INVALID_STATE', 'This upload URL has already been used');
  if (!(await deps.store.claimPut(key))) throw new AppError('INVALID_STATE', 'An upload to this URL is already in progress or done');
  try {
    // pipeline() handles errors of both from the start (a refusal may come before storage reads);
    // storage sees the failure as the stream's error.
    const bound = pipeline(body, new BoundUpload(record.sizeBytes, record.contentType), () => undefined);
    await deps.storage.put(key, bound, record.sizeBytes, record.contentType);
    await deps.store.markStored(key);
    return { ...record, status: 'stored' };
  } catch (err) {
    await deps.store.releasePut(key);
    throw err;
  }
}
