import type { PlatformCapability } from '../types.js';
import { GB, MB, JPEG, MOV, MP4, WEBM, WEBP } from './units.js';

// Video caption 2200, photo description 4000, photo title 90 (was [unverified]; now [3p], Zernio/Ayrshare);
// 2200 applies to both post kinds. No comments.
// Media, as TikTok's media transfer guide states them and the sandbox enforces
// (https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide): photos (≤35) JPEG/WebP, ≤20 MB,
// at most 1080p; video MP4/WebM/MOV, H.264/H.265/VP8/VP9, 360–4096 px per side, 23–60 fps, ≤4 GB. The duration
// limit is each creator's `max_video_post_duration_sec` (600 s for most; the connector's preflight reads it).
export const tiktok: PlatformCapability = {
  platform: 'tiktok',
  display_name: 'TikTok',
  character_limit: 2200,
  counting: 'characters',
  content_types: ['image', 'video'],
  media_required: true,
  max_images: 35,
  media: {
    image: { content_types: [JPEG, WEBP], max_bytes: 20 * MB, max_pixels: 1920 * 1080 },
    video: {
      content_types: [MP4, MOV, WEBM],
      max_bytes: 4 * GB,
      min_width: 360,
      min_height: 360,
      max_width: 4096,
      max_height: 4096,
      max_duration_s: 600,
      min_fps: 23,
      max_fps: 60,
      video_codecs: ['h264', 'hevc', 'vp8', 'vp9'],
    },
  },
  first_comment: false,
  threads: false,
};
