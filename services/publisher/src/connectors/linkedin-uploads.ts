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

export function linkedinUploads(baseUrl = 'https://api.linkedin.com'): LinkedInUploads {
  async function uploadSingle(target: TargetAccount, kind: 'image' | 'document', bytes: Buffer) {
    const owner = linkedinAuthor(target);
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

  async function uploadVideo(target: TargetAccount, bytes: Buffer) {
    const owner = linkedinAuthor(target);
    const init = await callPlatform(`${baseUrl}/rest/videos?action=initializeUpload`, {
      method: 'POST',
      headers: linkedinHeaders(target),
      body: { initializeUploadRequest: { owner, fileSizeBytes: bytes.length, uploadCaptions: false, uploadThumbnail: false } },
    });
    const urn = field<string>(init.body, 'value.video');
    const instructions = field<UploadInstruction[]>(init.body, 'value.uploadInstructions');
    const uploadToken = (init.body as { value?: { uploadToken?: string } }).value?.uploadToken ?? '';
    checkInstructions(instructions, bytes.length);
    const etags: string[] = [];
    for (const part of instructions) {
      const answer = await callPlatform(part.uploadUrl, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: bytes.subarray(part.firstByte, part.lastByte + 1),
        timeoutMs: PART_TIMEOUT_MS,
      });
      const etag = answer.headers.get('etag');
      if (!etag) throw new ConnectorError('rejected', `linkedin: the upload of bytes ${part.firstByte}-${part.lastByte} answered no ETag`);
      etags.push(etag);
    }
    await callPlatform(`${baseUrl}/rest/videos?action=finalizeUpload`, {
      method: 'POST',
      headers: linkedinHeaders(target),
      body: { finalizeUploadRequest: { video: urn, uploadToken, uploadedPartIds: etags } },
    });
    return { urn, owner };
  }

  return {
    upload: (target, kind, bytes) => (kind === 'video' ? uploadVideo(target, bytes) : uploadSingle(target, kind, bytes)),
  };
}
