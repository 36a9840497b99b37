import type { SandboxMediaRule } from '../../media/rules.js';
import type { PlatformRules, SandboxResponse } from '../../router.js';

const BEST_PRACTICES = 'https://developer.x.com/en/docs/x-api/v1/media/upload-media/uploading-media/media-best-practices';
const CHUNKED = 'https://docs.x.com/x-api/media/quickstart/media-upload-chunked';
const INITIALIZE = 'https://docs.x.com/x-api/media/initialize-media-upload';
const CREATE_POST = 'https://docs.x.com/x-api/posts/create-post';
const COUNTING = 'https://docs.x.com/resources/fundamentals/counting-characters';

const MB = 1024 * 1024;

/** Still images: JPEG, PNG, WEBP (GIF too, under its own category), up to 5 MB, 4x4 to 8192x8192. */
export const X_IMAGE: SandboxMediaRule = {
  types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
  max_bytes: 5 * MB,
  min_width: 4,
  min_height: 4,
  max_width: 8192,
  max_height: 8192,
  max_frames: 1,
  source: BEST_PRACTICES,
};
/** Animated GIFs (`tweet_gif`): up to 15 MB. */
export const X_GIF: SandboxMediaRule = { types: ['image/gif'], max_bytes: 15 * MB, min_width: 4, min_height: 4, max_width: 8192, max_height: 8192, source: BEST_PRACTICES };
/** Videos (`tweet_video`): MP4 (or MOV) H.264 with AAC audio, up to 512 MB, 0.5–140 s, 32x32 to 1280x1024, aspect 1:3 to 3:1, at most 60 fps. */
export const X_VIDEO: SandboxMediaRule = {
  types: ['video/mp4', 'video/quicktime'],
  max_bytes: 512 * MB,
  min_width: 32,
  min_height: 32,
  max_width: 1280,
  max_height: 1024,
  min_aspect: 1 / 3,
  max_aspect: 3,
  min_duration_s: 0.5,
  max_duration_s: 140,
  max_fps: 60,
  video_codecs: ['h264'],
  audio_codecs: ['aac'],
  source: BEST_PRACTICES,
};

/** Media categories and the declared types each takes, with the byte ceiling checked at INIT. */
export const CATEGORIES: Record<string, { types: readonly string[]; maxBytes: number; rule: SandboxMediaRule; processed: boolean }> = {
  tweet_image: { types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'], maxBytes: X_IMAGE.max_bytes, rule: X_IMAGE, processed: false },
  tweet_gif: { types: ['image/gif'], maxBytes: X_GIF.max_bytes, rule: X_GIF, processed: true },
  tweet_video: { types: ['video/mp4', 'video/quicktime'], maxBytes: X_VIDEO.max_bytes, rule: X_VIDEO, processed: true },
};

/** One APPEND segment: at most 5 MB (X's chunk ceiling); a media id lives 24 hours. */
export const MAX_SEGMENT_BYTES = 5 * MB;
export const EXPIRES_AFTER_SECS = 86_400;
export const MAX_WEIGHTED_LENGTH = 280;

export const X_RULES: PlatformRules = {
  media: { image: X_IMAGE, video: X_VIDEO },
  other: [
    { rule: `animated GIF (tweet_gif): ${X_GIF.types.join(', ')} up to 15 MB`, source: BEST_PRACTICES },
    { rule: 'a post carries at most 4 images, or 1 video, or 1 GIF; never a mix', source: CREATE_POST },
    { rule: `text at most ${MAX_WEIGHTED_LENGTH} weighted characters (twitter-text: URLs 23, CJK and emoji 2)`, source: COUNTING },
    { rule: 'a post needs text or media; a poll cannot carry media', source: CREATE_POST },
    {
      rule: 'chunked upload: POST /2/media/upload/initialize {media_type, total_bytes, media_category} → /{id}/append (multipart segment_index + media, ≤ 5 MB a segment) → /{id}/finalize (bytes must add up to total_bytes) → GET /2/media/upload?command=STATUS while processing_info.state is pending/in_progress',
      source: CHUNKED,
    },
    { rule: 'media_category tweet_image / tweet_gif / tweet_video must match media_type; total_bytes within the category ceiling', source: INITIALIZE },
    { rule: 'a media id expires after expires_after_secs (24 h); video and GIF must have finished processing (succeeded) before a post uses them', source: CHUNKED },
  ],
};

/** X API v2's problem answer: `{title, detail, type, errors:[{message}]}`. */
export function invalidRequest(message: string, status = 400): SandboxResponse {
  return {
    status,
    body: { title: 'Invalid Request', detail: 'One or more parameters to your request was invalid.', type: 'https://api.twitter.com/2/problems/invalid-request', errors: [{ message }] },
  };
}
