import { createHash, randomBytes } from 'node:crypto';
import { inspectMedia, type InspectedMedia } from '../../media/inspect.js';
import type { Route, SandboxRequest, SandboxResponse } from '../../router.js';
import type { SandboxState } from '../../state.js';
import { error, versioned } from './api.js';
import { assetViolation, LINKEDIN_VIDEO_MIN_BYTES } from './rules.js';

export const URN = /^urn:li:(person|organization):[^:]+$/;
let next = 7_100_000_000_000_000_000n;
/** The next id of LinkedIn's long numeric ids (URNs of assets and posts). */
export const nextId = (): bigint => (next += 1n);

/** LinkedIn's part size for video uploads (the last part may be shorter). */
export const LINKEDIN_VIDEO_PART_BYTES = 4 * 1024 * 1024;
const MAX_VIDEO_BYTES = 500 * 1024 * 1024;

type AssetKind = 'image' | 'video' | 'document';
interface Asset {
  urn: string;
  kind: AssetKind;
  owner: string;
  /** The token's account that registered the upload. */
  account: string;
  status: 'WAITING_UPLOAD' | 'AVAILABLE' | 'PROCESSING_FAILED';
  /** What LinkedIn read from the bytes, and why processing failed when it did. */
  facts?: InspectedMedia;
  failure?: string;
  /** Videos: the declared size, the byte range of each part, the ETag of each uploaded part, the upload token. */
  size?: number;
  parts?: Array<{ firstByte: number; lastByte: number; etag?: string; sha256?: string; bytes?: Buffer }>;
  uploadToken?: string;
  /** Secret in each part's signed upload URL. */
  signature?: string;
}

/** Uploaded assets per sandbox; an AVAILABLE one also sits in `state.media`, so a reset forgets it. */
const assetsBySandbox = new WeakMap<SandboxState, Map<string, Asset>>();
function assets(state: SandboxState): Map<string, Asset> {
  let map = assetsBySandbox.get(state);
  if (!map) assetsBySandbox.set(state, (map = new Map()));
  return map;
}
export function assetOf(state: SandboxState, urn: string): Asset | undefined {
  const asset = assets(state).get(urn);
  return asset && (asset.status === 'WAITING_UPLOAD' || state.media.has(urn)) ? asset : undefined;
}

/** The owner a token may upload for: its own member URN, or an organization (admin rights are not modelled). */
function ownerProblem(req: SandboxRequest, owner: unknown): SandboxResponse | undefined {
  if (typeof owner !== 'string' || !URN.test(owner)) return error(400, '/initializeUploadRequest/owner must be urn:li:person:… or urn:li:organization:…');
  if (owner.startsWith('urn:li:person:') && owner !== `urn:li:person:${req.account}`) {
    return error(403, `Not enough permissions to upload on behalf of ${owner}`, 'ACCESS_DENIED');
  }
  return undefined;
}

/** POST /rest/images|documents?action=initializeUpload: one upload URL for the whole file. */
function initializeSingle(kind: 'image' | 'document') {
  return versioned((req, state) => {
    const owner = (req.body as { initializeUploadRequest?: { owner?: unknown } } | undefined)?.initializeUploadRequest?.owner;
    if (req.query.get('action') !== 'initializeUpload') return error(400, 'action=initializeUpload is required');
    const refused = ownerProblem(req, owner);
    if (refused) return refused;
    next += 1n;
    const urn = `urn:li:${kind}:D4E${next}`;
    assets(state).set(urn, { urn, kind, owner: owner as string, account: req.account!, status: 'WAITING_UPLOAD' });
    return {
      status: 200,
      body: { value: { uploadUrlExpiresAt: Date.now() + 86_400_000, uploadUrl: `http://${req.headers.host}/linkedin/dms-uploads/${encodeURIComponent(urn)}`, [kind]: urn } },
    };
  });
}

function initializeVideo(req: SandboxRequest, state: SandboxState): SandboxResponse {
  const init = (req.body as { initializeUploadRequest?: { owner?: unknown; fileSizeBytes?: unknown } } | undefined)?.initializeUploadRequest;
  const refused = ownerProblem(req, init?.owner);
  if (refused) return refused;
  const size = init?.fileSizeBytes;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < LINKEDIN_VIDEO_MIN_BYTES || size > MAX_VIDEO_BYTES) {
    return error(400, `/initializeUploadRequest/fileSizeBytes must be an integer from ${LINKEDIN_VIDEO_MIN_BYTES} to ${MAX_VIDEO_BYTES}`);
  }
  next += 1n;
  const urn = `urn:li:video:C5F${next}`;
  const signature = randomBytes(12).toString('hex');
  const parts = Array.from({ length: Math.ceil(size / LINKEDIN_VIDEO_PART_BYTES) }, (_, i) => ({
    firstByte: i * LINKEDIN_VIDEO_PART_BYTES,
    lastByte: Math.min(size, (i + 1) * LINKEDIN_VIDEO_PART_BYTES) - 1,
  }));
  const uploadToken = parts.length > 1 ? randomBytes(8).toString('hex') : '';
  assets(state).set(urn, { urn, kind: 'video', owner: init!.owner as string, account: req.account!, status: 'WAITING_UPLOAD', size, parts, uploadToken, signature });
  const base = `http://${req.headers.host}/linkedin/dms-uploads/videos/${encodeURIComponent(urn)}`;
  return {
    status: 200,
    body: {
      value: {
        uploadUrlsExpireAt: Date.now() + 86_400_000,
        video: urn,
        uploadInstructions: parts.map((p, i) => ({ uploadUrl: `${base}/${i}?sig=${signature}`, firstByte: p.firstByte, lastByte: p.lastByte })),
        uploadToken,
      },
    },
  };
}

async function finalizeVideo(req: SandboxRequest, state: SandboxState): Promise<SandboxResponse> {
  const fin = (req.body as { finalizeUploadRequest?: { video?: string; uploadToken?: string; uploadedPartIds?: unknown } } | undefined)?.finalizeUploadRequest;
  const video = fin?.video ? assetOf(state, fin.video) : undefined;
  if (!video || video.kind !== 'video') return error(404, `unknown video ${fin?.video}`, 'NOT_FOUND');
  if (video.account !== req.account) return error(403, 'the video was registered by another member', 'ACCESS_DENIED');
  if (video.status === 'AVAILABLE') return error(400, 'the upload is already finalized');
  if ((fin?.uploadToken ?? '') !== video.uploadToken) return error(400, '/finalizeUploadRequest/uploadToken does not match the upload');
  const etags = video.parts!.map((p) => p.etag);
  if (etags.some((e) => e === undefined)) return error(400, `parts ${video.parts!.flatMap((p, i) => (p.etag ? [] : [i])).join(', ')} were not uploaded`);
  const given = fin?.uploadedPartIds;
  if (!Array.isArray(given) || given.length !== etags.length || given.some((id, i) => id !== etags[i])) {
    return error(400, '/finalizeUploadRequest/uploadedPartIds must list the ETag of every part, in order');
  }
  await processed(state, video, Buffer.concat(video.parts!.map((p) => p.bytes!)));
  for (const p of video.parts!) delete p.bytes;
  return { status: 200 };
}

/**
 * LinkedIn processes an upload once its bytes are in: the asset becomes AVAILABLE, or PROCESSING_FAILED
 * when the file breaks a rule (the upload itself was accepted; the failure shows in the asset's status).
 */
async function processed(state: SandboxState, asset: Asset, bytes: Buffer): Promise<void> {
  const facts = await inspectMedia(bytes);
  const failure = assetViolation(asset.kind, facts, bytes);
  asset.facts = facts;
  asset.status = failure ? 'PROCESSING_FAILED' : 'AVAILABLE';
  if (failure) asset.failure = failure;
  state.media.set(asset.urn, { platform: 'linkedin', bytes: bytes.length, contentType: facts.content_type, facts, status: asset.status });
}

/** What LinkedIn read of an uploaded asset's bytes. */
export function assetFacts(state: SandboxState, urn: string): InspectedMedia | undefined {
  return assetOf(state, urn)?.facts;
}

/** Media a post may use: known, AVAILABLE, owned by the post's author. */
export function mediaProblem(state: SandboxState, id: string | undefined, author: string): SandboxResponse | undefined {
  const asset = id ? assetOf(state, id) : undefined;
  if (!asset) return error(400, `unknown media ${id}`);
  if (asset.status !== 'AVAILABLE') return error(400, `media ${id} is ${asset.status}${asset.failure ? `: ${asset.failure}` : ''}`);
  if (asset.owner !== author) return error(403, `media ${id} is owned by ${asset.owner}, not by the author ${author}`, 'ACCESS_DENIED');
  return undefined;
}

/** Upload routes: images and documents (one PUT), videos (parts, ETags, finalize), video status. */
export const assetRoutes: Route[] = [
  // Registering an upload is a create: injected faults apply to it (and to finalizeUpload).
  { method: 'POST', path: '/rest/images', creates: true, handle: initializeSingle('image') },
  { method: 'POST', path: '/rest/documents', creates: true, handle: initializeSingle('document') },
  {
    method: 'PUT',
    path: '/dms-uploads/:urn',
    handle: async (req, state) => {
      const asset = assetOf(state, decodeURIComponent(req.params.urn!));
      if (!asset || asset.kind === 'video') return error(404, 'unknown upload', 'NOT_FOUND');
      if (asset.account !== req.account) return error(403, 'the upload was registered by another member', 'ACCESS_DENIED');
      if (asset.status !== 'WAITING_UPLOAD') return error(400, 'the upload is already complete');
      if (!req.raw.length) return error(400, 'empty upload');
      await processed(state, asset, req.raw);
      return { status: 201 };
    },
  },
  {
    method: 'POST',
    path: '/rest/videos',
    creates: true,
    handle: versioned((req, state) => {
      const action = req.query.get('action');
      if (action === 'initializeUpload') return initializeVideo(req, state);
      if (action === 'finalizeUpload') return finalizeVideo(req, state);
      return error(400, 'action must be initializeUpload or finalizeUpload');
    }),
  },
  {
    // The signed part URL carries no token: its `sig` is the authorisation.
    method: 'PUT',
    path: '/dms-uploads/videos/:urn/:part',
    auth: false,
    handle: (req, state) => {
      const video = assetOf(state, decodeURIComponent(req.params.urn!));
      const part = video?.parts?.[Number(req.params.part)];
      if (!video || !part || req.query.get('sig') !== video.signature) return error(404, 'unknown upload URL', 'NOT_FOUND');
      if (video.status !== 'WAITING_UPLOAD') return error(400, 'the upload is already finalized');
      const expected = part.lastByte - part.firstByte + 1;
      if (req.raw.length !== expected) return error(400, `this part is bytes ${part.firstByte}-${part.lastByte}: expected ${expected} bytes, got ${req.raw.length}`);
      part.etag = `/${randomBytes(16).toString('base64url')}`;
      part.sha256 = createHash('sha256').update(req.raw).digest('hex');
      part.bytes = Buffer.from(req.raw);
      return { status: 200, headers: { etag: part.etag } };
    },
  },
  {
    method: 'GET',
    path: '/rest/videos/:urn',
    handle: versioned((req, state) => {
      const video = assetOf(state, decodeURIComponent(req.params.urn!));
      if (!video || video.kind !== 'video') return error(404, 'Not Found', 'NOT_FOUND');
      if (video.account !== req.account) return error(403, 'the video was registered by another member', 'ACCESS_DENIED');
      return {
        status: 200,
        body: {
          id: video.urn,
          owner: video.owner,
          status: video.status,
          ...(video.failure ? { processingFailureReason: video.failure } : {}),
          // Not LinkedIn's: what the stand-in received, for tests.
          sandbox: { fileSizeBytes: video.size, parts: video.parts!.map((p) => ({ firstByte: p.firstByte, lastByte: p.lastByte, etag: p.etag ?? null, sha256: p.sha256 ?? null })) },
        },
      };
    }),
  },
];
