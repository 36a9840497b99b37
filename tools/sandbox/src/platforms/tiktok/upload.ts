import { inspectMedia, type InspectedMedia } from '../../media/inspect.js';
import type { Route, SandboxResponse } from '../../router.js';
import type { SandboxState, SandboxUpload } from '../../state.js';
import { TIKTOK_VIDEO, tiktokFailReason } from './rules.js';

/**
 * TikTok's FILE_UPLOAD: the init declares video_size, chunk_size and total_chunk_count (checked against TikTok's
 * chunk rules), answers an `upload_url`, and the bytes are PUT there in order with `Content-Range`: 206 for each
 * chunk, 201 once the whole video has arrived. The upload URL lasts an hour (403 after).
 * https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide
 */
const MiB = 1024 * 1024;
export const CHUNK_RULES = { min: 5 * MiB, max: 64 * MiB, lastMax: 128 * MiB, maxChunks: 1000, urlLifetimeMs: 3_600_000 };

export const uploadKey = (publishId: string) => `tiktok:${publishId}`;

export interface FileUploadSpec {
  video_size?: number;
  chunk_size?: number;
  total_chunk_count?: number;
}

/** Why the declared sizes break TikTok's chunk rules, or undefined. */
export function chunkProblem({ video_size: size, chunk_size: chunk, total_chunk_count: count }: FileUploadSpec): string | undefined {
  if (!Number.isInteger(size) || !Number.isInteger(chunk) || !Number.isInteger(count) || size! <= 0 || chunk! <= 0) {
    return 'source_info needs integer video_size, chunk_size and total_chunk_count for FILE_UPLOAD';
  }
  if (size! > TIKTOK_VIDEO.max_bytes) return `video_size exceeds ${TIKTOK_VIDEO.max_bytes} bytes`;
  if (size! < CHUNK_RULES.min) return chunk === size && count === 1 ? undefined : 'a video under 5 MB is uploaded whole: chunk_size must equal video_size and total_chunk_count be 1';
  if (chunk! < CHUNK_RULES.min || chunk! > CHUNK_RULES.max) return 'chunk_size must be between 5 MB and 64 MB';
  if (count !== Math.floor(size! / chunk!)) return `total_chunk_count must be video_size / chunk_size rounded down (${Math.floor(size! / chunk!)})`;
  if (count! < 1 || count! > CHUNK_RULES.maxChunks) return 'total_chunk_count must be 1 to 1000';
  if (size! - (count! - 1) * chunk! > CHUNK_RULES.lastMax) return 'the final chunk would exceed 128 MB';
  return undefined;
}

/** Registers a FILE_UPLOAD (its sizes already checked); `post` is what the post will be made of once the bytes are in. */
export function registerUpload(state: SandboxState, account: string, publishId: string, spec: Required<FileUploadSpec>, post: Record<string, unknown>, maxSeconds: number): void {
  state.media.set(uploadKey(publishId), {
    platform: 'tiktok',
    bytes: spec.video_size,
    contentType: 'video',
    account,
    status: 'uploading',
    chunks: new Map(),
    extra: { ...spec, received: 0, post, maxSeconds, createdAt: Date.now() },
  });
}

type Complete = (state: SandboxState, upload: SandboxUpload, media: InspectedMedia, failReason: string | undefined) => void;

const uploadError = (status: number, message: string): SandboxResponse => ({ status, body: { error: { code: status === 403 ? 'access_denied' : 'invalid_params', message } } });

/** PUT {upload_url}: one chunk, in order; the last one completes the upload (then `complete` makes the post). */
export function fileUploadRoutes(complete: Complete): Route[] {
  return [
    {
      method: 'PUT',
      path: '/video-upload/:publish_id',
      auth: false,
      handle: async (req, state) => {
        const upload = state.media.get(uploadKey(req.params.publish_id!));
        if (!upload || upload.status !== 'uploading') return uploadError(404, 'The upload does not exist or is complete.');
        const extra = upload.extra as Required<FileUploadSpec> & { received: number; createdAt: number; maxSeconds: number };
        if (Date.now() - extra.createdAt > CHUNK_RULES.urlLifetimeMs) return uploadError(403, 'The upload URL has expired.');
        const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(req.headers['content-range'] ?? ''));
        const index = upload.chunks!.size;
        const last = index === extra.total_chunk_count - 1;
        const expected = last ? extra.video_size - extra.received : extra.chunk_size;
        if (!range || Number(range[1]) !== extra.received || Number(range[3]) !== extra.video_size || Number(range[2]) - Number(range[1]) + 1 !== req.raw.length || req.raw.length !== expected) {
          return uploadError(416, `Content-Range must be bytes ${extra.received}-${extra.received + expected - 1}/${extra.video_size} with that many bytes`);
        }
        upload.chunks!.set(index, req.raw);
        extra.received += req.raw.length;
        if (!last) return { status: 206 };
        upload.status = 'uploaded';
        const media = await inspectMedia(Buffer.concat([...upload.chunks!.values()]));
        upload.chunks = undefined;
        complete(state, upload, media, tiktokFailReason(media, TIKTOK_VIDEO, extra.maxSeconds));
        return { status: 201 };
      },
    },
  ];
}
