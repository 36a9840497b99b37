import { inspectMedia, type InspectedMedia } from '../../media/inspect.js';
import { formFile, readForm } from '../../media/receive.js';
import { mediaViolation } from '../../media/rules.js';
import type { Route, SandboxResponse } from '../../router.js';
import type { SandboxState, SandboxUpload } from '../../state.js';
import { CATEGORIES, EXPIRES_AFTER_SECS, invalidRequest, MAX_SEGMENT_BYTES, X_IMAGE } from './rules.js';

/**
 * X's media upload (API v2): the one-request upload for images (`POST /2/media/upload`, JSON `media` base64 +
 * `media_category`), and the chunked upload for videos and GIFs: `POST /2/media/upload/initialize`,
 * `POST /2/media/upload/{id}/append` (multipart `segment_index` + `media`), `POST /2/media/upload/{id}/finalize`,
 * then `GET /2/media/upload?command=STATUS&media_id=` while `processing_info.state` is `pending` or
 * `in_progress`. Processing reads the bytes: a file X would not take ends `failed` with X's error.
 */
let sequence = 0;
const newId = () => `${Date.now()}${String(sequence++ % 1_000_000).padStart(6, '0')}`;

/** Seconds X asks a client to wait before the next STATUS. */
export const CHECK_AFTER_SECS = 1;

const ofAccount = (state: SandboxState, id: string, account: string | undefined): SandboxUpload | undefined => {
  const upload = state.media.get(id);
  return upload?.platform === 'twitter' && upload.account === account ? upload : undefined;
};

export const expired = (upload: SandboxUpload) => Date.now() >= Number(upload.extra?.expiresAt ?? Infinity);

function processingInfo(upload: SandboxUpload) {
  const state = upload.status!;
  if (state === 'failed') return { state, progress_percent: 100, error: upload.extra?.error };
  if (state === 'succeeded') return { state, progress_percent: 100 };
  return { state, check_after_secs: CHECK_AFTER_SECS, progress_percent: state === 'pending' ? 0 : 50 };
}

const mediaAnswer = (id: string, upload: SandboxUpload, extra: Record<string, unknown> = {}): SandboxResponse => ({
  status: 200,
  body: {
    data: {
      id,
      media_key: `${upload.extra?.category === 'tweet_image' ? 3 : upload.extra?.category === 'tweet_gif' ? 16 : 7}_${id}`,
      expires_after_secs: Math.max(0, Math.round((Number(upload.extra?.expiresAt) - Date.now()) / 1000)),
      ...extra,
    },
  },
});

/** The uploaded file once X has read it: a violation of the category's rule as X's processing error. */
function judge(media: InspectedMedia, category: string): string | undefined {
  const { rule } = CATEGORIES[category]!;
  if (category === 'tweet_gif' && media.content_type !== 'image/gif') return `tweet_gif takes image/gif, got ${media.content_type}`;
  return mediaViolation(media, rule);
}

export const mediaRoutes: Route[] = [
  {
    method: 'POST',
    path: '/2/media/upload',
    handle: async (req, state) => {
      const body = req.body as { media?: string; media_category?: string } | undefined;
      if (!body?.media || !body.media_category) return invalidRequest('media and media_category are required');
      if (body.media_category !== 'tweet_image') return invalidRequest(`media_category ${body.media_category} needs the chunked upload (initialize, append, finalize)`);
      const bytes = Buffer.from(body.media, 'base64');
      const media = await inspectMedia(bytes);
      const problem = mediaViolation(media, X_IMAGE);
      if (problem) return invalidRequest(`InvalidMedia: ${problem}`);
      const id = newId();
      const upload: SandboxUpload = {
        platform: 'twitter',
        bytes: bytes.length,
        contentType: media.content_type,
        account: req.account,
        facts: media,
        status: 'succeeded',
        extra: { category: 'tweet_image', expiresAt: Date.now() + EXPIRES_AFTER_SECS * 1000 },
      };
      state.media.set(id, upload);
      return mediaAnswer(id, upload, { size: bytes.length });
    },
  },
  {
    method: 'POST',
    path: '/2/media/upload/initialize',
    handle: (req, state) => {
      const body = (req.body ?? {}) as { media_type?: string; total_bytes?: number; media_category?: string };
      const category = CATEGORIES[body.media_category ?? ''];
      if (!category) return invalidRequest(`media_category must be one of ${Object.keys(CATEGORIES).join(', ')}`);
      if (!body.media_type || !category.types.includes(body.media_type)) return invalidRequest(`media_type ${body.media_type} is not valid for ${body.media_category}`);
      const total = Number(body.total_bytes);
      if (!Number.isInteger(total) || total <= 0) return invalidRequest('total_bytes must be a positive integer');
      if (total > category.maxBytes) return invalidRequest(`total_bytes ${total} exceeds the ${body.media_category} limit of ${category.maxBytes}`);
      const id = newId();
      const upload: SandboxUpload = {
        platform: 'twitter',
        bytes: total,
        contentType: body.media_type,
        account: req.account,
        status: 'initialized',
        chunks: new Map(),
        extra: { category: body.media_category, expiresAt: Date.now() + EXPIRES_AFTER_SECS * 1000 },
      };
      state.media.set(id, upload);
      return mediaAnswer(id, upload);
    },
  },
  {
    method: 'POST',
    path: '/2/media/upload/:id/append',
    handle: async (req, state) => {
      const upload = ofAccount(state, req.params.id!, req.account);
      if (!upload || expired(upload)) return invalidRequest(`media_id ${req.params.id} is unknown or expired`);
      if (upload.status !== 'initialized') return invalidRequest(`media_id ${req.params.id} is already finalized`);
      const form = await readForm(req);
      const index = Number(form?.get('segment_index'));
      const segment = await formFile(form, 'media');
      if (!segment || !Number.isInteger(index) || index < 0 || index > 999) return invalidRequest('append needs a segment_index (0–999) and a media file part');
      if (segment.length > MAX_SEGMENT_BYTES) return invalidRequest(`segment of ${segment.length} bytes exceeds the ${MAX_SEGMENT_BYTES} byte limit`);
      upload.chunks!.set(index, segment);
      const received = [...upload.chunks!.values()].reduce((n, c) => n + c.length, 0);
      if (received > upload.bytes) return invalidRequest(`received ${received} bytes, more than total_bytes ${upload.bytes}`);
      return { status: 200, body: { data: { expires_at: Math.floor(Number(upload.extra!.expiresAt) / 1000) } } };
    },
  },
  {
    method: 'POST',
    path: '/2/media/upload/:id/finalize',
    handle: async (req, state) => {
      const id = req.params.id!;
      const upload = ofAccount(state, id, req.account);
      if (!upload || expired(upload)) return invalidRequest(`media_id ${id} is unknown or expired`);
      if (upload.status !== 'initialized') return invalidRequest(`media_id ${id} is already finalized`);
      const chunks = upload.chunks!;
      const indexes = [...chunks.keys()].sort((a, b) => a - b);
      if (indexes.some((n, i) => n !== i)) return invalidRequest(`segments are missing: received ${indexes.join(', ')}`);
      const bytes = Buffer.concat(indexes.map((i) => chunks.get(i)!));
      if (bytes.length !== upload.bytes) return invalidRequest(`File size mismatch: received ${bytes.length} bytes, total_bytes was ${upload.bytes}`);
      const category = String(upload.extra!.category);
      const media = await inspectMedia(bytes);
      upload.facts = media;
      upload.chunks = undefined;
      const problem = judge(media, category);
      if (!CATEGORIES[category]!.processed) {
        if (problem) {
          state.media.delete(id);
          return invalidRequest(`InvalidMedia: ${problem}`);
        }
        upload.status = 'succeeded';
        return mediaAnswer(id, upload, { size: bytes.length });
      }
      // Processed kinds go through X's transcoder: the verdict comes with STATUS.
      upload.status = 'pending';
      upload.extra = { ...upload.extra, verdict: problem ?? null };
      return mediaAnswer(id, upload, { size: bytes.length, processing_info: processingInfo(upload) });
    },
  },
  {
    method: 'GET',
    path: '/2/media/upload',
    handle: (req, state) => {
      if (req.query.get('command') !== 'STATUS') return invalidRequest('command must be STATUS');
      const id = req.query.get('media_id') ?? '';
      const upload = ofAccount(state, id, req.account);
      if (!upload || expired(upload)) return invalidRequest(`media_id ${id} is unknown or expired`);
      if (upload.status === 'initialized') return invalidRequest(`media_id ${id} is not finalized`);
      // Each STATUS moves processing one step on: pending → in_progress → succeeded or failed.
      if (upload.status === 'pending') upload.status = 'in_progress';
      else if (upload.status === 'in_progress') {
        const verdict = upload.extra?.verdict as string | null;
        upload.status = verdict ? 'failed' : 'succeeded';
        if (verdict) upload.extra = { ...upload.extra, error: { code: 1, name: 'InvalidMedia', message: verdict } };
      }
      return mediaAnswer(id, upload, { processing_info: processingInfo(upload) });
    },
  },
];
