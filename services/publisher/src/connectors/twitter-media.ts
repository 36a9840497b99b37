import { setTimeout as sleep } from 'node:timers/promises';
import { callPlatform, field } from './http.js';
import { ConnectorError, type ContentPart, type MediaItem } from './types.js';

/** How X media uploads wait for processing: X's `check_after_secs` × `pollScale`, at most `maxWaitMs` in all. */
export interface XMediaOptions {
  /** Multiplies X's `check_after_secs` (1 in production; tests shrink it). */
  pollScale?: number;
  /** The longest wait for one video or GIF to finish processing (default 10 minutes). */
  maxWaitMs?: number;
  /** Bytes per APPEND segment (default 4 MB; X takes at most 5 MB). */
  segmentBytes?: number;
}

type Category = 'tweet_image' | 'tweet_gif' | 'tweet_video';
interface Prepared {
  category: Category;
  bytes: Buffer;
  contentType: string;
}

interface ProcessingInfo {
  state?: string;
  check_after_secs?: number;
  error?: { code?: number; name?: string; message?: string };
}

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);
const VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime']);

/** The upload category of a file: a still image, an animated GIF (`tweet_gif`; a GIF whose frames are unknown counts as one) or a video. */
function categoryOf(contentType: string, item: MediaItem): Category {
  if (contentType === 'image/gif') return item.facts?.kind === 'image' && (item.facts.frames ?? 1) === 1 ? 'tweet_image' : 'tweet_gif';
  if (IMAGE_TYPES.has(contentType)) return 'tweet_image';
  if (VIDEO_TYPES.has(contentType)) return 'tweet_video';
  throw new ConnectorError('rejected', `X does not take ${contentType} media (images JPEG/PNG/WEBP/GIF, video MP4)`);
}

/** The upload category of one media item, from its probed facts when it has them. */
async function prepare(item: MediaItem): Promise<Prepared> {
  const { bytes, contentType: declared } = await item.read();
  const contentType = item.facts?.content_type ?? declared;
  return { category: categoryOf(contentType, item), bytes, contentType };
}

/**
 * What X would refuse in a post's shape, checked without uploading: media types, 4 images or 1 video or 1 GIF,
 * no poll with media. Reads a file only when it has no probed facts.
 */
export async function checkXShape(part: ContentPart): Promise<void> {
  if (part.poll && part.media.length) throw new ConnectorError('rejected', 'X does not take a poll and media in one post');
  const categories = await Promise.all(part.media.map(async (item) => ({ category: categoryOf(item.facts?.content_type ?? (await item.read()).contentType, item) })));
  checkMix(categories);
}

/** X's mixing rule: 4 images, or 1 video, or 1 GIF. */
function checkMix(prepared: ReadonlyArray<{ category: Category }>): void {
  const timed = prepared.filter((p) => p.category !== 'tweet_image').length;
  if (timed > 1 || (timed === 1 && prepared.length > 1)) throw new ConnectorError('rejected', 'X takes 4 images, or 1 video, or 1 GIF per post: this post mixes them');
  if (prepared.length > 4) throw new ConnectorError('rejected', `X takes at most 4 images per post; this post has ${prepared.length}`);
}

/**
 * Uploads a post's media to X and answers their media ids, in order. Still images go in one request
 * (`POST /2/media/upload`); videos and GIFs through the chunked upload (`/2/media/upload/initialize`,
 * `/{id}/append` segments, `/{id}/finalize`), then STATUS is polled while processing is pending or in progress,
 * honouring X's `check_after_secs`. Processing that fails is `rejected` with X's error message.
 */
export async function uploadXMedia(baseUrl: string, headers: Record<string, string>, items: MediaItem[], options: XMediaOptions = {}): Promise<string[]> {
  const prepared = await Promise.all(items.map(prepare));
  checkMix(prepared);
  const ids: string[] = [];
  for (const item of prepared) ids.push(item.category === 'tweet_image' ? await simple(baseUrl, headers, item) : await chunked(baseUrl, headers, item, options));
  return ids;
}

async function simple(baseUrl: string, headers: Record<string, string>, item: Prepared): Promise<string> {
  const answer = await callPlatform(`${baseUrl}/2/media/upload`, {
    method: 'POST',
    headers,
    body: { media: item.bytes.toString('base64'), media_category: 'tweet_image', media_type: item.contentType },
  });
  return field<string>(answer.body, 'data.id');
}

async function chunked(baseUrl: string, headers: Record<string, string>, item: Prepared, options: XMediaOptions): Promise<string> {
  const init = await callPlatform(`${baseUrl}/2/media/upload/initialize`, {
    method: 'POST',
    headers,
    body: { media_type: item.contentType, total_bytes: item.bytes.length, media_category: item.category },
  });
  const id = field<string>(init.body, 'data.id');
  const segment = options.segmentBytes ?? 4 * 1024 * 1024;
  for (let index = 0, offset = 0; offset < item.bytes.length; index++, offset += segment) {
    const form = new FormData();
    form.set('segment_index', String(index));
    form.set('media', new Blob([new Uint8Array(item.bytes.subarray(offset, offset + segment))]), 'media');
    await callPlatform(`${baseUrl}/2/media/upload/${encodeURIComponent(id)}/append`, { method: 'POST', headers, body: form, timeoutMs: 120_000 });
  }
  const finalize = await callPlatform(`${baseUrl}/2/media/upload/${encodeURIComponent(id)}/finalize`, { method: 'POST', headers });
  let info = (finalize.body as { data?: { processing_info?: ProcessingInfo } }).data?.processing_info;
  const deadline = Date.now() + (options.maxWaitMs ?? 600_000);
  while (info && (info.state === 'pending' || info.state === 'in_progress')) {
    const wait = (info.check_after_secs ?? 1) * 1000 * (options.pollScale ?? 1);
    if (Date.now() + wait > deadline) throw new ConnectorError('transient', `X was still processing media ${id} after ${options.maxWaitMs ?? 600_000} ms`);
    await sleep(wait);
    const status = await callPlatform(`${baseUrl}/2/media/upload?command=STATUS&media_id=${encodeURIComponent(id)}`, { headers });
    info = field<ProcessingInfo>(status.body, 'data.processing_info');
  }
  if (info?.state === 'failed')
    throw new ConnectorError('rejected', `X could not process the ${item.category === 'tweet_gif' ? 'GIF' : 'video'}: ${info.error?.message ?? info.error?.name ?? 'failed'}`);
  return id;
}
