import type { InspectedMedia } from '../../media/inspect.js';
import { fetchMedia } from '../../media/receive.js';
import { mediaViolation, type SandboxMediaRule } from '../../media/rules.js';
import type { PlatformRules, SandboxRequest, SandboxResponse } from '../../router.js';
import type { SandboxState } from '../../state.js';
import { createContainer, graphError, type Container } from '../meta-graph.js';

const MEDIA_SPECS = 'https://developers.facebook.com/docs/threads/overview#media-specifications';
const POSTS = 'https://developers.facebook.com/docs/threads/posts';
const TROUBLESHOOTING = 'https://developers.facebook.com/docs/threads/troubleshooting';

/** Images: JPEG or PNG, up to 8 MB, aspect ratio up to 10:1 (Threads scales the width into 320–1440 itself). */
export const THREADS_IMAGE: SandboxMediaRule = { types: ['image/jpeg', 'image/png'], max_bytes: 8 * 1024 * 1024, min_aspect: 0.1, max_aspect: 10, source: MEDIA_SPECS };
/** Videos: MOV or MP4, H.264 or HEVC with AAC, up to 1 GB and 5 minutes, 23–60 fps, at most 1920 columns, aspect 0.01:1 to 10:1. */
export const THREADS_VIDEO: SandboxMediaRule = {
  types: ['video/mp4', 'video/quicktime'],
  max_bytes: 1024 * 1024 * 1024,
  max_width: 1920,
  min_aspect: 0.01,
  max_aspect: 10,
  max_duration_s: 300,
  min_fps: 23,
  max_fps: 60,
  video_codecs: ['h264', 'hevc'],
  audio_codecs: ['aac'],
  source: MEDIA_SPECS,
};

export const THREADS_LIMITS = { text: 500, links: 5, carouselMin: 2, carouselMax: 20 } as const;

export const THREADS_RULES: PlatformRules = {
  media: { image: THREADS_IMAGE, video: THREADS_VIDEO },
  other: [
    { rule: `text at most ${THREADS_LIMITS.text} characters, each emoji counting its UTF-8 bytes`, source: 'https://developers.facebook.com/documentation/threads/posts' },
    {
      rule: `at most ${THREADS_LIMITS.links} distinct links per post (THREADS_API__LINK_LIMIT_EXCEEDED)`,
      source: 'https://developers.facebook.com/documentation/threads/create-posts/text-attachments',
    },
    { rule: `a CAROUSEL has ${THREADS_LIMITS.carouselMin} to ${THREADS_LIMITS.carouselMax} FINISHED is_carousel_item containers (images and videos)`, source: POSTS },
    { rule: 'media are pulled from image_url / video_url; an image Threads cannot fetch or take is refused when its container is made', source: POSTS },
    {
      rule: 'a video container is IN_PROGRESS, then FINISHED or ERROR with error_message (FAILED_DOWNLOADING_VIDEO, FAILED_PROCESSING_VIDEO, FAILED_PROCESSING_AUDIO, INVALID_ASPEC_RATIO, INVALID_DURATION, INVALID_FRAME_RATE, UNKNOWN); only a FINISHED container can be published',
      source: TROUBLESHOOTING,
    },
  ],
};

/** What the Threads stand-in read of a container's media, and the container's error_message when it failed. */
interface MediaInfo {
  media?: InspectedMedia;
  error?: string;
}
const infos = new WeakMap<Container, MediaInfo>();
export const mediaInfo = (container: Container): MediaInfo => infos.get(container) ?? {};

/** Threads' error_message for a video breaking its rules. */
function videoError(problem: string): string {
  if (/duration/.test(problem)) return 'INVALID_DURATION';
  if (/frame rate/.test(problem)) return 'INVALID_FRAME_RATE';
  if (/aspect ratio/.test(problem)) return 'INVALID_ASPEC_RATIO';
  if (/audio codec/.test(problem)) return 'FAILED_PROCESSING_AUDIO';
  if (/codec|could not be|media type|width/.test(problem)) return 'FAILED_PROCESSING_VIDEO';
  return 'UNKNOWN';
}

/**
 * An IMAGE or VIDEO container (or carousel item): the media is pulled from its URL now. An image breaking the rules
 * is refused at once (Graph error 100); a video becomes a container that ends in ERROR with Threads' error_message.
 */
export async function mediaContainer(state: SandboxState, req: SandboxRequest, params: Record<string, string>): Promise<SandboxResponse> {
  const fetched = await fetchMedia(params.video_url ?? params.image_url!);
  if (params.image_url) {
    if ('error' in fetched) return graphError(400, `(#100) The image could not be downloaded: ${fetched.error}`, 100);
    const problem = mediaViolation(fetched.media, THREADS_IMAGE);
    if (problem) return graphError(400, `(#100) The image cannot be published: ${problem}`, 100);
  }
  const container = createContainer(state, req, params);
  const info: MediaInfo = {};
  if ('error' in fetched) info.error = 'FAILED_DOWNLOADING_VIDEO';
  else {
    info.media = fetched.media;
    const problem = params.video_url ? mediaViolation(fetched.media, THREADS_VIDEO) : undefined;
    if (problem) info.error = videoError(problem);
  }
  container.failed = info.error !== undefined;
  infos.set(container, info);
  return { status: 200, body: { id: container.id } };
}
