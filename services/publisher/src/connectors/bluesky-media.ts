import { setTimeout as sleep } from 'node:timers/promises';
import { callPlatform, field, type CallOptions, type HttpAnswer } from './http.js';
import { ConnectorError, type ContentPart, type MediaItem } from './types.js';

/** Where Bluesky videos go and how long the connector waits for their processing. */
export interface BlueskyMediaOptions {
  /** The video service (default https://video.bsky.app; the connector's base URL when that is not bsky.social). */
  videoServiceUrl?: string;
  /** Between two getJobStatus calls (default 2 s). */
  jobPollMs?: number;
  /** The longest wait for one video's processing (default 10 minutes). */
  maxWaitMs?: number;
}

export const BLUESKY_MAX_IMAGES = 4;

type Xrpc = (method: string, options?: CallOptions) => Promise<HttpAnswer>;

interface JobStatus {
  jobId?: string;
  state?: string;
  blob?: unknown;
  error?: string;
  message?: string;
}

const aspectRatio = (item: MediaItem) => (item.facts?.width && item.facts.height ? { aspectRatio: { width: item.facts.width, height: item.facts.height } } : {});

/** The kinds of a part's media Bluesky can embed: up to 4 images, or one video alone (refused otherwise, naming the rule). */
export function checkShape(part: ContentPart): 'images' | 'video' | undefined {
  if (!part.media.length) return undefined;
  const other = part.media.find((m) => m.type !== 'image' && m.type !== 'video');
  if (other) throw new ConnectorError('rejected', `Bluesky embeds images or a video, not a ${other.type}`);
  const videos = part.media.filter((m) => m.type === 'video').length;
  if (videos && part.media.length > 1) throw new ConnectorError('rejected', 'Bluesky takes one video per post, with no images beside it');
  if (part.media.length > BLUESKY_MAX_IMAGES) throw new ConnectorError('rejected', `Bluesky takes at most ${BLUESKY_MAX_IMAGES} images per post; this post has ${part.media.length}`);
  return videos ? 'video' : 'images';
}

/**
 * A part's embed: images uploaded with `com.atproto.repo.uploadBlob` into `app.bsky.embed.images`, or one
 * video through the video service into `app.bsky.embed.video`: a service token from the PDS
 * (`com.atproto.server.getServiceAuth`, aud `did:web:<pds host>`, lxm `com.atproto.repo.uploadBlob`),
 * `app.bsky.video.uploadVideo`, then `app.bsky.video.getJobStatus` polled until the job completes (its blob)
 * or fails (`rejected` with the service's message). Embeds carry `aspectRatio` when the media's size is known.
 */
export async function blueskyEmbed(xrpc: Xrpc, pdsUrl: string, repo: string, part: ContentPart, options: BlueskyMediaOptions): Promise<Record<string, unknown> | undefined> {
  const shape = checkShape(part);
  if (!shape) return undefined;
  if (shape === 'video') {
    const item = part.media[0]!;
    return { $type: 'app.bsky.embed.video', video: await uploadVideo(xrpc, pdsUrl, repo, item, options), alt: '', ...aspectRatio(item) };
  }
  const images = [];
  for (const item of part.media) {
    const { bytes, contentType } = await item.read();
    const answer = await xrpc('com.atproto.repo.uploadBlob', { method: 'POST', headers: { 'content-type': item.facts?.content_type ?? contentType }, body: bytes, timeoutMs: 60_000 });
    images.push({ alt: '', image: field<unknown>(answer.body, 'blob'), ...aspectRatio(item) });
  }
  return { $type: 'app.bsky.embed.images', images };
}

async function uploadVideo(xrpc: Xrpc, pdsUrl: string, repo: string, item: MediaItem, options: BlueskyMediaOptions): Promise<unknown> {
  const { bytes } = await item.read();
  const query = new URLSearchParams({ aud: `did:web:${new URL(pdsUrl).hostname}`, lxm: 'com.atproto.repo.uploadBlob', exp: String(Math.floor(Date.now() / 1000) + 30 * 60) });
  const token = field<string>((await xrpc(`com.atproto.server.getServiceAuth?${query}`)).body, 'token');
  const service = options.videoServiceUrl!.replace(/\/+$/, '');
  const name = `${item.r2Key.split('/').pop() ?? 'video'}.mp4`.replace(/(\.mp4)+$/, '.mp4');
  const upload = await callPlatform(`${service}/xrpc/app.bsky.video.uploadVideo?${new URLSearchParams({ did: repo, name })}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'video/mp4' },
    body: bytes,
    timeoutMs: 300_000,
  });
  let job = field<JobStatus>(upload.body, 'jobStatus');
  const deadline = Date.now() + (options.maxWaitMs ?? 600_000);
  while (job.state !== 'JOB_STATE_COMPLETED' && job.state !== 'JOB_STATE_FAILED') {
    if (Date.now() >= deadline) throw new ConnectorError('transient', `Bluesky was still processing video job ${job.jobId} after ${options.maxWaitMs ?? 600_000} ms`);
    await sleep(options.jobPollMs ?? 2000);
    const status = await callPlatform(`${service}/xrpc/app.bsky.video.getJobStatus?${new URLSearchParams({ jobId: String(job.jobId) })}`);
    job = field<JobStatus>(status.body, 'jobStatus');
  }
  if (job.state === 'JOB_STATE_FAILED') throw new ConnectorError('rejected', `Bluesky could not process the video: ${job.message ?? job.error ?? 'failed'}`);
  if (!job.blob) throw new ConnectorError('rejected', `Bluesky's video job ${job.jobId} completed without a blob`);
  return job.blob;
}
