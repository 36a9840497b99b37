import { AppError } from '@spa/errors';
import { callPlatform, field } from './http.js';
import { linkedinAuthor, linkedinHeaders } from './linkedin-api.js';
import { ConnectorError, type TargetAccount } from './types.js';

/**
 * LinkedIn media uploads, owned by the account's author URN:
 * - images and documents: `POST /rest/{images|documents}?action=initializeUpload {initializeUploadRequest:{owner}}`
 *   → `{value:{uploadUrl, image|document}}`, then PUT the bytes to `uploadUrl`;
 * - videos: `POST /rest/videos?action=initializeUpload {initializeUploadRequest:{owner, fileSizeBytes, …}}`
 *   → `{value:{video, uploadToken, uploadInstructions:[{uploadUrl, firstByte, lastByte}]}}`; PUT each byte
 *   range to its `uploadUrl` (a signed URL: no token) and keep each answer's `ETag`; then
 *   `POST /rest/videos?action=finalizeUpload {finalizeUploadRequest:{video, uploadToken, uploadedPartIds:[ETags in order]}}`.
 */
export type LinkedInAssetKind = 'image' | 'video' | 'document';

export interface LinkedInUploads {
  /** Uploads `bytes` as an asset owned by the account's author URN; answers its URN and owner. */
  upload(target: TargetAccount, kind: LinkedInAssetKind, bytes: Buffer): Promise<{ urn: string; owner: string }>;
  /**
   * Uploads a file of `size` bytes that arrives in chunks: a video is registered with its size and
   * each part LinkedIn asks for is PUT as soon as its bytes have arrived (at most one part, 4 MiB, is
   * held), then finalized only once exactly `size` bytes came and `bytes` ended; an image or document
   * is gathered (LinkedIn's few MB), then registered and PUT. `bytes` failing, ending early or running
   * long throws before anything is finalized.
   */
  uploadStream(target: TargetAccount, kind: LinkedInAssetKind, size: number, bytes: AsyncIterable<Uint8Array>): Promise<{ urn: string; owner: string }>;
}

const COLLECTION = { image: 'images', video: 'videos', document: 'documents' } as const;
/** Uploading one part may take long on a slow link; a part is at most 4 MiB. */
const PART_TIMEOUT_MS = 120_000;

interface UploadInstruction {
  uploadUrl: string;
  firstByte: number;
  lastByte: number;
}

/** The byte ranges LinkedIn asked for must cover the file exactly, in order. */
function checkInstructions(instructions: UploadInstruction[], size: number): void {
  let expected = 0;
  for (const part of instructions) {
    if (!part.uploadUrl || part.firstByte !== expected || part.lastByte < part.firstByte) break;
    expected = part.lastByte + 1;
  }
  if (expected !== size || !instructions.length) {
    throw new ConnectorError('rejected', `linkedin: uploadInstructions do not cover the ${size} bytes of the video in order`);
  }
}

/**
 * Reads exact byte counts from chunks as they arrive, holding at most the bytes asked for plus one
 * chunk. Fewer or more bytes than announced is the caller's mistake (INVALID_PARAMETERS).
 */
class ExactReader {
  private readonly chunks: AsyncIterator<Uint8Array>;
  private rest: Uint8Array = new Uint8Array(0);
  private consumed = 0;

  constructor(
    bytes: AsyncIterable<Uint8Array>,
    private readonly size: number,
  ) {
    this.chunks = bytes[Symbol.asyncIterator]();
  }

  async read(n: number): Promise<Buffer> {
    const out = Buffer.allocUnsafe(n);
    let filled = 0;
    while (filled < n) {
      if (!this.rest.length) {
        const next = await this.chunks.next();
        if (next.done) throw this.mismatch(`the bytes ended after ${this.consumed + filled} of the ${this.size} announced`);
        this.rest = next.value;
        continue;
      }
      const take = Math.min(n - filled, this.rest.length);
      out.set(this.rest.subarray(0, take), filled);
      this.rest = this.rest.subarray(take);
      filled += take;
    }
    this.consumed += n;
    return out;
  }

  /** Waits for the end of the bytes; refuses any byte past the announced size. */
  async end(): Promise<void> {
    for (let next = await this.chunks.next(); ; next = await this.chunks.next()) {
      if (this.rest.length) throw this.mismatch(`more bytes arrived than the ${this.size} announced`);
      if (next.done) return;
      this.rest = next.value;
    }
  }

  /** Stops reading (the source is told, so a stream behind it is released). */
  async cancel(): Promise<void> {
    await this.chunks.return?.();
  }

  private mismatch(problem: string): AppError {
    return new AppError('INVALID_PARAMETERS', `The upload's size does not match: ${problem}`, { details: [`size_bytes: ${problem}`] });
  }
}

async function* once(bytes: Buffer): AsyncIterable<Uint8Array> {
  yield bytes;
}

export function linkedinUploads(baseUrl = 'https://api.linkedin.com'): LinkedInUploads {
  async function uploadSingle(target: TargetAccount, kind: 'image' | 'document', reader: ExactReader, size: number) {
    const owner = linkedinAuthor(target);
    // Small files: all the bytes first, so an upload that fails midway registers nothing at LinkedIn.
    const bytes = await reader.read(size);
    await reader.end();
    const init = await callPlatform(`${baseUrl}/rest/${COLLECTION[kind]}?action=initializeUpload`, {
      method: 'POST',
      headers: linkedinHeaders(target),
      body: { initializeUploadRequest: { owner } },
    });
    const uploadUrl = field<string>(init.body, 'value.uploadUrl');
    const urn = field<string>(init.body, `value.${kind}`);
    await callPlatform(uploadUrl, { method: 'PUT', headers: { authorization: `Bearer ${target.credentials.access_token}` }, body: bytes, timeoutMs: PART_TIMEOUT_MS });
    return { urn, owner };
  }

  async function uploadVideo(target: TargetAccount, reader: ExactReader, size: number) {
    const owner = linkedinAuthor(target);
    const init = await callPlatform(`${baseUrl}/rest/videos?action=initializeUpload`, {
      method: 'POST',
      headers: linkedinHeaders(target),
      body: { initializeUploadRequest: { owner, fileSizeBytes: size, uploadCaptions: false, uploadThumbnail: false } },
    });
    const urn = field<string>(init.body, 'value.video');
    const instructions = field<UploadInstruction[]>(init.body, 'value.uploadInstructions');
    const uploadToken = (init.body as { value?: { uploadToken?: string } }).value?.uploadToken ?? '';
    checkInstructions(instructions, size);
    const etags: string[] = [];
    for (const part of instructions) {
      // The part's bytes as they arrive, then PUT: one part in memory at a time.
      const answer = await callPlatform(part.uploadUrl, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: await reader.read(part.lastByte - part.firstByte + 1),
        timeoutMs: PART_TIMEOUT_MS,
      });
      const etag = answer.headers.get('etag');
      if (!etag) throw new ConnectorError('rejected', `linkedin: the upload of bytes ${part.firstByte}-${part.lastByte} answered no ETag`);
      etags.push(etag);
    }
    // Finalized only when the sender ended on exactly the announced size.
    await reader.end();
    await callPlatform(`${baseUrl}/rest/videos?action=finalizeUpload`, {
      method: 'POST',
      headers: linkedinHeaders(target),
      body: { finalizeUploadRequest: { video: urn, uploadToken, uploadedPartIds: etags } },
    });
    return { urn, owner };
  }

  async function uploadStream(target: TargetAccount, kind: LinkedInAssetKind, size: number, bytes: AsyncIterable<Uint8Array>) {
    const reader = new ExactReader(bytes, size);
    try {
      return kind === 'video' ? await uploadVideo(target, reader, size) : await uploadSingle(target, kind, reader, size);
    } finally {
      await reader.cancel();
    }
  }

  return {
    upload: (target, kind, bytes) => uploadStream(target, kind, bytes.length, once(bytes)),
    uploadStream,
  };
}
