import type { PlatformRules, SandboxResponse } from '../../router.js';
import type { SandboxMediaRule } from '../../media/rules.js';

/** Pinterest API v5 errors are `{code, message}`, with the HTTP status of the failure. */
export const pinterestError = (status: number, code: number, message: string): SandboxResponse => ({ status, body: { code, message } });

// Pinterest's own product-specs page (https://help.pinterest.com/en/business/article/pinterest-product-specs) was not
// reachable from here; these figures are as a posting API that relays them publishes them.
const PIN_SPECS = 'https://www.ayrshare.com/docs/media-guidelines/pinterest';
const CREATE_PIN = 'https://developers.pinterest.com/docs/api/v5/pins-create';
const MEDIA_UPLOAD = 'https://developers.pinterest.com/docs/api-features/creating-boards-and-pins/#creating-video-pins';

/** Image pins (by URL, base64 or several URLs): the formats Pinterest takes, up to 20 MB each. */
export const PINTEREST_IMAGE: SandboxMediaRule = {
  types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/bmp', 'image/tiff'],
  max_bytes: 20 * 1_000_000,
  source: PIN_SPECS,
};

/** Video pins (registered through /v5/media): MP4/MOV/M4V, H.264 or H.265, up to 2 GB, 4 s to 15 min, aspect ratio from 1:2 to 1.91:1. */
export const PINTEREST_VIDEO: SandboxMediaRule = {
  types: ['video/mp4', 'video/quicktime', 'video/x-m4v'],
  max_bytes: 2 * 1_000_000_000,
  min_duration_s: 4,
  max_duration_s: 15 * 60,
  min_aspect: 1 / 2,
  max_aspect: 1.91,
  video_codecs: ['h264', 'hevc'],
  source: PIN_SPECS,
};

export const PINTEREST_LIMITS = { title: 100, description: 500, link: 2048, carouselMin: 2, carouselMax: 5 };

export const PINTEREST_RULES: PlatformRules = {
  media: { image: PINTEREST_IMAGE, video: PINTEREST_VIDEO },
  other: [
    { rule: "board_id is required and must be one of the account's boards (404 otherwise)", source: CREATE_PIN },
    { rule: `title ≤ ${PINTEREST_LIMITS.title} characters, description ≤ ${PINTEREST_LIMITS.description}, link ≤ ${PINTEREST_LIMITS.link}`, source: CREATE_PIN },
    { rule: 'media_source: image_url, image_base64 (content_type + data), multiple_image_urls (2–5 images, a carousel) or video_id', source: CREATE_PIN },
    { rule: 'a video pin names a registered media_id whose upload succeeded, and a cover image (cover_image_url or cover_image_key_frame_time)', source: MEDIA_UPLOAD },
    { rule: 'video upload: POST /v5/media → POST the file to upload_url with every upload_parameters field → GET /v5/media/{id} until succeeded (or failed)', source: MEDIA_UPLOAD },
  ],
};
