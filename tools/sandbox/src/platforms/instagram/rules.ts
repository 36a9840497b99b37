import type { SandboxMediaRule } from '../../media/rules.js';
import type { PlatformRules } from '../../router.js';

const IG_MEDIA = 'https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media';
const PUBLISHING = 'https://developers.facebook.com/docs/instagram-platform/content-publishing';
const ERROR_CODES = 'https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes';

/**
 * Feed images: JPEG only (extended JPEG such as MPO and JPS neither), at most 8 MB, aspect ratio from 4:5 to
 * 1.91:1. Widths outside 320–1440 px are scaled by Instagram, not refused, so no width bound here.
 */
export const INSTAGRAM_IMAGE: SandboxMediaRule = {
  types: ['image/jpeg'],
  max_bytes: 8 * 1024 * 1024,
  min_aspect: 4 / 5,
  max_aspect: 1.91,
  source: IG_MEDIA,
};

/** Reels (every single video): MP4/MOV, H.264 or HEVC with AAC audio, 3 s to 15 min, 23–60 fps, at most 1920 columns, aspect 0.01:1 to 10:1, ≤300 MB. */
export const INSTAGRAM_VIDEO: SandboxMediaRule = {
  types: ['video/mp4', 'video/quicktime'],
  max_bytes: 300 * 1024 * 1024,
  max_width: 1920,
  min_aspect: 0.01,
  max_aspect: 10,
  min_duration_s: 3,
  max_duration_s: 15 * 60,
  min_fps: 23,
  max_fps: 60,
  video_codecs: ['h264', 'hevc'],
  audio_codecs: ['aac'],
  source: IG_MEDIA,
};

export const INSTAGRAM_LIMITS = { caption: 2200, hashtags: 30, mentions: 20, carouselMin: 2, carouselMax: 10, containerHours: 24 };

export const INSTAGRAM_RULES: PlatformRules = {
  media: { image: INSTAGRAM_IMAGE, video: INSTAGRAM_VIDEO },
  other: [
    { rule: `caption ≤ ${INSTAGRAM_LIMITS.caption} characters, ≤ ${INSTAGRAM_LIMITS.hashtags} hashtags, ≤ ${INSTAGRAM_LIMITS.mentions} @ mentions`, source: IG_MEDIA },
    { rule: 'media is pulled from its public URL (image_url, video_url); a URL that cannot be fetched is refused (code 9004, subcode 2207052)', source: PUBLISHING },
    { rule: 'an image breaking the image rule is refused when its container is created (aspect ratio: code 36003, subcode 2207009)', source: ERROR_CODES },
    { rule: 'a single video is a Reel (media_type REELS); a video breaking the Reels rule ends its container in status_code ERROR', source: IG_MEDIA },
    { rule: 'carousel: 2–10 FINISHED children containers (is_carousel_item), then media_type CAROUSEL', source: PUBLISHING },
    { rule: `containers read IN_PROGRESS → FINISHED (or ERROR); a container not published within ${INSTAGRAM_LIMITS.containerHours} hours is EXPIRED and cannot be published`, source: PUBLISHING },
  ],
};
