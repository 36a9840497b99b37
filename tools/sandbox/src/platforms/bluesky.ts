import { inspectMedia, type InspectedMedia } from '../media/inspect.js';
import { mediaViolation } from '../media/rules.js';
import type { SandboxPlatform, SandboxRequest } from '../router.js';
import type { SandboxPost, SandboxState } from '../state.js';
import { BLUESKY_IMAGE, BLUESKY_RULES, did, invalid, MAX_IMAGES, TEXT_BYTES, TEXT_GRAPHEMES, xrpcError } from './bluesky/rules.js';
import { cidOf, videoRoutes } from './bluesky/video.js';
import { graphemeLength } from './text.js';

export { BLUESKY_IMAGE, BLUESKY_RULES, BLUESKY_VIDEO } from './bluesky/rules.js';

/**
 * A Bluesky PDS (XRPC under `/xrpc/`): com.atproto.repo.createRecord (app.bsky.feed.post: text ≤300
 * graphemes and ≤3000 bytes, createdAt, facets with UTF-8 byte offsets, embed app.bsky.embed.images ≤4 uploaded
 * image blobs or app.bsky.embed.video with one processed video blob, reply {root,parent}; the post records the
 * media as read from their bytes), com.atproto.repo.uploadBlob (raw bytes), the video service (see
 * bluesky/video.ts), com.atproto.repo.deleteRecord,
 * com.atproto.repo.listRecords (public), app.bsky.feed.getPosts (counts), com.atproto.server.getSession.
 * The account behind `sandbox-<name>` is `did:plc:<name>`, handle `<name>.bsky.social`. Errors are XRPC's
 * `{error, message}`; a bad or expired access JWT is answered 400 `ExpiredToken`, as the PDS does.
 */
const POST = 'app.bsky.feed.post';

const B32 = '234567abcdefghijklmnopqrstuvwxyz';
let lastTid = 0;
/** A record key in TID form: 13 base32-sortable characters from microseconds. */
function tid(): string {
  lastTid = Math.max(Date.now() * 1000, lastTid + 1);
  let n = BigInt(lastTid) << 10n;
  let out = '';
  for (let i = 0; i < 13; i++, n >>= 5n) out = B32[Number(n & 31n)] + out;
  return out;
}

interface StrongRef {
  uri?: string;
  cid?: string;
}
interface BlobRef {
  ref?: { $link?: string };
  mimeType?: string;
  size?: number;
}
interface AspectRatio {
  width?: unknown;
  height?: unknown;
}
interface PostRecord {
  $type?: string;
  text?: string;
  createdAt?: string;
  facets?: Array<{ index?: { byteStart?: number; byteEnd?: number }; features?: Array<{ $type?: string }> }>;
  embed?: {
    $type?: string;
    images?: Array<{ alt?: string; image?: BlobRef; aspectRatio?: AspectRatio }>;
    video?: BlobRef;
    aspectRatio?: AspectRatio;
  };
  reply?: { root?: StrongRef; parent?: StrongRef };
}

const badAspect = (a: AspectRatio | undefined) => a !== undefined && !(Number.isInteger(a.width) && Number.isInteger(a.height) && Number(a.width) > 0 && Number(a.height) > 0);

/** The embed's media as the PDS holds them (uploaded by this account), or the lexicon's complaint. */
function embedMedia(embed: NonNullable<PostRecord['embed']>, state: SandboxState, account: string): InspectedMedia[] | string {
  const blobOf = (ref: BlobRef | undefined) => {
    const upload = state.media.get(ref?.ref?.$link ?? '');
    return upload?.platform === 'bluesky' && upload.account === account && upload.facts ? upload : undefined;
  };
  if (embed.$type === 'app.bsky.embed.images') {
    const images = embed.images ?? [];
    if (!images.length) return 'Record/embed/images must not be empty';
    if (images.length > MAX_IMAGES) return `Record/embed/images must not have more than ${MAX_IMAGES} elements`;
    const media: InspectedMedia[] = [];
    for (const [i, item] of images.entries()) {
      const blob = blobOf(item.image);
      if (typeof item.alt !== 'string' || !blob || blob.status === 'video') return `Record/embed/images/${i} has an unknown blob or no alt`;
      if (badAspect(item.aspectRatio)) return `Record/embed/images/${i}/aspectRatio must have positive integer width and height`;
      const problem = mediaViolation(blob.facts!, BLUESKY_IMAGE);
      if (problem) return `Record/embed/images/${i}/image: ${problem}`;
      media.push(blob.facts!);
    }
    return media;
  }
  if (embed.$type === 'app.bsky.embed.video') {
    const blob = blobOf(embed.video);
    if (!blob || blob.status !== 'video') return 'Record/embed/video must be a video blob made by the video service';
    if (badAspect(embed.aspectRatio)) return 'Record/embed/aspectRatio must have positive integer width and height';
    return [blob.facts!];
  }
  return 'Record/embed is invalid';
}

function check(record: PostRecord, state: SandboxState): string | undefined {
  if (record.$type !== POST) return 'Invalid app.bsky.feed.post record: Record/$type must be app.bsky.feed.post';
  if (typeof record.text !== 'string') return 'Invalid app.bsky.feed.post record: Record must have the property "text"';
  if (!record.createdAt || Number.isNaN(Date.parse(record.createdAt))) return 'Invalid app.bsky.feed.post record: Record/createdAt must be an valid atproto datetime';
  if (graphemeLength(record.text) > TEXT_GRAPHEMES) return `Invalid app.bsky.feed.post record: Record/text must not be longer than ${TEXT_GRAPHEMES} graphemes`;
  const bytes = Buffer.byteLength(record.text);
  if (bytes > TEXT_BYTES) return `Invalid app.bsky.feed.post record: Record/text must not be longer than ${TEXT_BYTES} characters`;
  for (const f of record.facets ?? []) {
    const { byteStart = -1, byteEnd = -1 } = f.index ?? {};
    if (byteStart < 0 || byteEnd <= byteStart || byteEnd > bytes || !f.features?.length) return 'Invalid app.bsky.feed.post record: Record/facets has an invalid index';
  }
  if (record.reply) {
    for (const ref of [record.reply.root, record.reply.parent]) {
      const post = ref?.uri ? state.find('bluesky', ref.uri.split('/').pop()!) : undefined;
      if (!post || post.details.cid !== ref?.cid) return 'Invalid app.bsky.feed.post record: Record/reply must reference existing posts';
    }
  }
  return undefined;
}

function view(post: SandboxPost) {
  return {
    uri: post.details.uri,
    cid: post.details.cid,
    author: { did: did(post.account), handle: `${post.account}.bsky.social` },
    record: post.details.record,
    likeCount: 9,
    repostCount: 2,
    replyCount: 3,
    quoteCount: 1,
    indexedAt: post.createdAt.toISOString(),
  };
}

const ownRepo = (req: SandboxRequest, repo: unknown) => repo === did(req.account!) || repo === `${req.account}.bsky.social`;

export const bluesky: SandboxPlatform = {
  name: 'bluesky',
  unauthorized: () => xrpcError(400, 'ExpiredToken', 'Token has expired'),
  rules: BLUESKY_RULES,
  routes: [
    ...videoRoutes,
    {
      method: 'POST',
      path: '/xrpc/com.atproto.repo.createRecord',
      creates: true,
      handle: (req, state) => {
        const body = (req.body ?? {}) as { repo?: string; collection?: string; record?: PostRecord };
        if (!body.repo || !body.collection || !body.record) return invalid('Input must have the properties "repo", "collection" and "record"');
        if (!ownRepo(req, body.repo)) return xrpcError(400, 'InvalidRequest', 'Invalid repo: not the authenticated account');
        if (body.collection !== POST) return invalid(`the sandbox only stores ${POST}`);
        const problem = check(body.record, state);
        if (problem) return invalid(problem);
        const media = body.record.embed ? embedMedia(body.record.embed, state, req.account!) : [];
        if (typeof media === 'string') return invalid(`Invalid app.bsky.feed.post record: ${media}`);
        const rkey = tid();
        const uri = `at://${did(req.account!)}/${POST}/${rkey}`;
        const cid = cidOf(JSON.stringify(body.record));
        state.createPost('bluesky', req.account!, body.record.text ?? '', { uri, cid, record: body.record }, rkey, media);
        return { status: 200, body: { uri, cid, commit: { cid: cidOf(uri), rev: tid() }, validationStatus: 'valid' } };
      },
    },
    {
      method: 'POST',
      path: '/xrpc/com.atproto.repo.uploadBlob',
      handle: async (req, state) => {
        const mimeType = String(req.headers['content-type'] ?? '');
        if (!req.raw.length || !mimeType) return invalid('a blob needs bytes and a content-type');
        if (req.raw.length > 5 * 1024 * 1024) return xrpcError(400, 'BlobTooLarge', 'This file is too large');
        const cid = cidOf(req.raw);
        // The PDS sniffs the blob's type from its bytes; the record's lexicon checks type and size when a post embeds it.
        state.media.set(cid, { platform: 'bluesky', bytes: req.raw.length, contentType: mimeType, account: req.account, facts: await inspectMedia(req.raw) });
        return { status: 200, body: { blob: { $type: 'blob', ref: { $link: cid }, mimeType, size: req.raw.length } } };
      },
    },
    {
      method: 'POST',
      path: '/xrpc/com.atproto.repo.deleteRecord',
      handle: (req, state) => {
        const body = (req.body ?? {}) as { repo?: string; collection?: string; rkey?: string };
        if (!body.repo || !body.collection || !body.rkey) return invalid('Input must have the properties "repo", "collection" and "rkey"');
        if (!ownRepo(req, body.repo)) return invalid('Invalid repo: not the authenticated account');
        state.remove('bluesky', body.rkey);
        return { status: 200, body: { commit: { cid: cidOf(body.rkey), rev: tid() } } };
      },
    },
    {
      method: 'GET',
      path: '/xrpc/com.atproto.repo.listRecords',
      auth: false,
      handle: (req, state) => {
        const repo = req.query.get('repo') ?? '';
        if (!repo || req.query.get('collection') !== POST) return invalid('Params must have the properties "repo" and "collection"');
        const account = repo.replace(/^did:plc:/, '').replace(/\.bsky\.social$/, '');
        const limit = Math.min(Number(req.query.get('limit') ?? 50), 100);
        const { items, next } = state.page(state.postsOf('bluesky', account), limit, req.query.get('cursor'));
        const records = items.map((p) => ({ uri: p.details.uri, cid: p.details.cid, value: p.details.record }));
        return { status: 200, body: next ? { records, cursor: next } : { records } };
      },
    },
    {
      method: 'GET',
      path: '/xrpc/app.bsky.feed.getPosts',
      handle: (req, state) => {
        const uris = req.query.getAll('uris');
        if (!uris.length || uris.length > 25) return invalid('Params must have 1 to 25 "uris"');
        const posts = uris.map((u) => state.find('bluesky', u.split('/').pop()!)).filter((p): p is SandboxPost => p !== undefined && uris.includes(String(p.details.uri)));
        return { status: 200, body: { posts: posts.map(view) } };
      },
    },
    {
      method: 'GET',
      path: '/xrpc/com.atproto.server.getSession',
      handle: (req) => ({ status: 200, body: { did: did(req.account!), handle: `${req.account}.bsky.social`, active: true } }),
    },
  ],
};
