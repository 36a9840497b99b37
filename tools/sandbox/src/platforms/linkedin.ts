import { createHash, randomBytes } from 'node:crypto';
import type { SandboxPlatform, SandboxRequest, SandboxResponse } from '../router.js';
import type { SandboxState } from '../state.js';

/**
 * LinkedIn versioned API: POST /rest/posts (201, empty body, URN in `x-restli-id`), GET /rest/posts?q=author
 * (finder), DELETE /rest/posts/:urn, POST /rest/socialActions/:urn/comments, GET /rest/socialActions/:urn,
 * GET /rest/organizationalEntityShareStatistics, GET /v2/userinfo, and media uploads (see assets below):
 * POST /rest/{images|documents}?action=initializeUpload + PUT to the returned uploadUrl;
 * POST /rest/videos?action=initializeUpload (byte ranges of 4 MiB, one signed uploadUrl each), PUT each
 * part (answers an ETag), POST /rest/videos?action=finalizeUpload with the ETags in order, GET /rest/videos/:urn
 * (status; plus `sandbox.parts`: size, SHA-256 and ETag of each part received, so a test can check
 * every byte arrived in order; only hashes are kept, never the bytes). `/rest` calls need `LinkedIn-Version`;
 * writes need `X-Restli-Protocol-Version: 2.0.0`. Comments are kept in the post's `details.comments`.
 * As LinkedIn does, an upload's owner must be the token's member (or an organization), and a post may
 * use only AVAILABLE media owned by its author.
 */
const error = (status: number, message: string, code = 'BAD_REQUEST'): SandboxResponse => ({ status, body: { status, serviceErrorCode: 100, code, message } });

/** The checks every `/rest` call gets: a version header, and Rest.li 2.0 on writes. */
function versioned(handler: (req: SandboxRequest, state: SandboxState) => SandboxResponse) {
  return (req: SandboxRequest, state: SandboxState): SandboxResponse => {
    if (!/^\d{6}$/.test(String(req.headers['linkedin-version'] ?? ''))) {
      return error(400, 'A version must be present. Please specify a version by adding the LinkedIn-Version header.', 'VERSION_MISSING');
    }
    if (req.method !== 'GET' && req.headers['x-restli-protocol-version'] !== '2.0.0') return error(400, 'X-Restli-Protocol-Version 2.0.0 is required');
    return handler(req, state);
  };
}

const URN = /^urn:li:(person|organization):[^:]+$/;
let next = 7_100_000_000_000_000_000n;

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
  status: 'WAITING_UPLOAD' | 'AVAILABLE';
  /** Videos: the declared size, the byte range of each part, the ETag of each uploaded part, the upload token. */
  size?: number;
  parts?: Array<{ firstByte: number; lastByte: number; etag?: string; sha256?: string }>;
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
function assetOf(state: SandboxState, urn: string): Asset | undefined {
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
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > MAX_VIDEO_BYTES) {
    return error(400, `/initializeUploadRequest/fileSizeBytes must be an integer from 1 to ${MAX_VIDEO_BYTES}`);
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

function finalizeVideo(req: SandboxRequest, state: SandboxState): SandboxResponse {
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
  video.status = 'AVAILABLE';
  state.media.set(video.urn, { platform: 'linkedin', bytes: video.size!, contentType: 'video/mp4' });
  return { status: 200 };
}

/** Media a post may use: known, AVAILABLE, owned by the post's author. */
function mediaProblem(state: SandboxState, id: string | undefined, author: string): SandboxResponse | undefined {
  const asset = id ? assetOf(state, id) : undefined;
  if (!asset) return error(400, `unknown media ${id}`);
  if (asset.status !== 'AVAILABLE') return error(400, `media ${id} is ${asset.status}`);
  if (asset.owner !== author) return error(403, `media ${id} is owned by ${asset.owner}, not by the author ${author}`, 'ACCESS_DENIED');
  return undefined;
}

export const linkedin: SandboxPlatform = {
  name: 'linkedin',
  unauthorized: () => ({ status: 401, body: { status: 401, serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN', message: 'Invalid access token' } }),
  routes: [
    {
      method: 'POST',
      path: '/rest/posts',
      creates: true,
      handle: versioned((req, state) => {
        const b = req.body as
          | {
              author?: string;
              commentary?: string;
              visibility?: string;
              lifecycleState?: string;
              distribution?: { feedDistribution?: string };
              content?: {
                media?: { id?: string; title?: string };
                multiImage?: { images?: Array<{ id?: string }> };
                poll?: { question?: string; options?: Array<{ text?: string }>; settings?: { duration?: string } };
              };
            }
          | undefined;
        if (!b?.author || !URN.test(b.author)) return error(422, 'ERROR :: /author :: invalid URN', 'UNPROCESSABLE_ENTITY');
        if (typeof b.commentary !== 'string' || b.commentary.length > 3000) return error(400, '/commentary must be a string of at most 3000 characters');
        if (!b.commentary && !b.content) return error(400, 'a post needs commentary or content');
        if (b.visibility !== 'PUBLIC' || b.lifecycleState !== 'PUBLISHED' || !b.distribution?.feedDistribution) return error(400, 'visibility, lifecycleState and distribution are required');
        const ids = [b.content?.media?.id, ...(b.content?.multiImage?.images ?? []).map((i) => i.id)].filter((id) => id !== undefined);
        for (const id of ids) {
          const refused = mediaProblem(state, id, b.author);
          if (refused) return refused;
        }
        if (b.content?.media?.id?.startsWith('urn:li:document:') && !b.content.media.title) return error(400, '/content/media/title is required for documents');
        const poll = b.content?.poll;
        if (poll && (!poll.question || (poll.options?.length ?? 0) < 2 || (poll.options?.length ?? 0) > 4 || !poll.settings?.duration)) {
          return error(400, 'a poll needs a question, 2 to 4 options and a duration');
        }
        next += 1n;
        const post = state.createPost('linkedin', req.account!, b.commentary, { author: b.author, content: b.content, comments: [] }, `urn:li:share:${next}`);
        return { status: 201, headers: { 'x-restli-id': post.id, 'x-linkedin-id': post.id } };
      }),
    },
    {
      method: 'GET',
      path: '/rest/posts',
      handle: versioned((req, state) => {
        const author = req.query.get('author');
        if (req.query.get('q') !== 'author' || !author) return error(400, 'q=author and author are required');
        const count = Number(req.query.get('count') ?? 10);
        const elements = state
          .postsOf('linkedin', req.account)
          .filter((p) => p.details.author === author)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
          .slice(0, count)
          .map((p) => ({
            id: p.id,
            author,
            commentary: p.text,
            visibility: 'PUBLIC',
            lifecycleState: 'PUBLISHED',
            createdAt: p.createdAt.getTime(),
            publishedAt: p.createdAt.getTime(),
            lastModifiedAt: p.createdAt.getTime(),
          }));
        return { status: 200, body: { paging: { start: 0, count, links: [] }, elements } };
      }),
    },
    {
      method: 'DELETE',
      path: '/rest/posts/:urn',
      handle: versioned((req, state) => (state.remove('linkedin', decodeURIComponent(req.params.urn!)) ? { status: 204 } : error(404, 'Not Found', 'NOT_FOUND'))),
    },
    {
      method: 'POST',
      path: '/rest/socialActions/:urn/comments',
      handle: versioned((req, state) => {
        const urn = decodeURIComponent(req.params.urn!);
        const post = state.find('linkedin', urn);
        const b = req.body as { actor?: string; object?: string; message?: { text?: string } } | undefined;
        if (!post) return error(404, 'Not Found', 'NOT_FOUND');
        if (!b?.actor || !URN.test(b.actor) || b.object !== urn || !b.message?.text) return error(400, 'actor, object and message.text are required');
        const comments = post.details.comments as Array<{ actor: string; text: string }>;
        comments.push({ actor: b.actor, text: b.message.text });
        const id = `urn:li:comment:(${urn},${comments.length})`;
        return { status: 201, headers: { 'x-restli-id': id }, body: { id, actor: b.actor, object: urn, message: { text: b.message.text } } };
      }),
    },
    {
      method: 'GET',
      path: '/rest/socialActions/:urn',
      handle: versioned((req, state) => {
        const post = state.find('linkedin', decodeURIComponent(req.params.urn!));
        if (!post) return error(404, 'Not Found', 'NOT_FOUND');
        const comments = (post.details.comments as unknown[]).length;
        return {
          status: 200,
          body: { target: post.id, likesSummary: { totalLikes: 5, likedByCurrentUser: false }, commentsSummary: { aggregatedTotalComments: comments, totalFirstLevelComments: comments } },
        };
      }),
    },
    {
      method: 'GET',
      path: '/rest/organizationalEntityShareStatistics',
      handle: versioned((req, state) => {
        const org = req.query.get('organizationalEntity') ?? '';
        const list = req.query.get('shares') ?? req.query.get('ugcPosts') ?? '';
        const urn = /^List\((.+)\)$/.exec(list)?.[1];
        if (req.query.get('q') !== 'organizationalEntity' || !org.startsWith('urn:li:organization:') || !urn)
          return error(400, 'q=organizationalEntity, organizationalEntity and shares=List(…) are required');
        const post = state.find('linkedin', urn);
        if (!post) return { status: 200, body: { paging: { start: 0, count: 10, links: [] }, elements: [] } };
        const totalShareStatistics = { impressionCount: 250, uniqueImpressionsCount: 200, clickCount: 12, likeCount: 9, commentCount: 3, shareCount: 2, engagement: 0.104 };
        return { status: 200, body: { paging: { start: 0, count: 10, links: [] }, elements: [{ organizationalEntity: org, share: urn, totalShareStatistics }] } };
      }),
    },
    // Registering an upload is a create: injected faults apply to it (and to finalizeUpload).
    { method: 'POST', path: '/rest/images', creates: true, handle: initializeSingle('image') },
    { method: 'POST', path: '/rest/documents', creates: true, handle: initializeSingle('document') },
    {
      method: 'PUT',
      path: '/dms-uploads/:urn',
      handle: (req, state) => {
        const asset = assetOf(state, decodeURIComponent(req.params.urn!));
        if (!asset || asset.kind === 'video') return error(404, 'unknown upload', 'NOT_FOUND');
        if (asset.account !== req.account) return error(403, 'the upload was registered by another member', 'ACCESS_DENIED');
        if (!req.raw.length) return error(400, 'empty upload');
        asset.status = 'AVAILABLE';
        state.media.set(asset.urn, { platform: 'linkedin', bytes: req.raw.length, contentType: String(req.headers['content-type'] ?? 'application/octet-stream') });
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
            status: video.status === 'AVAILABLE' ? 'AVAILABLE' : 'WAITING_UPLOAD',
            // Not LinkedIn's: what the stand-in received, for tests.
            sandbox: { fileSizeBytes: video.size, parts: video.parts!.map((p) => ({ firstByte: p.firstByte, lastByte: p.lastByte, etag: p.etag ?? null, sha256: p.sha256 ?? null })) },
          },
        };
      }),
    },
    {
      method: 'GET',
      path: '/v2/userinfo',
      handle: (req) => ({
        status: 200,
        body: { sub: req.account, name: req.account, picture: `https://sandbox.invalid/avatars/${req.account}.jpg`, email_verified: true, locale: { country: 'US', language: 'en' } },
      }),
    },
  ],
};
