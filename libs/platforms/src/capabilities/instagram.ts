import type { PlatformCapability } from '../types.js';
import { MB, JPEG, MOV, MP4 } from './units.js';

// caption 2200 [code/3p]; carousel 2–10; comments [code]. Media as Instagram's IG User Media reference states it
// and the sandbox enforces (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media):
// images JPEG only, ≤8 MB, aspect 4:5 to 1.91:1 (widths outside 320–1440 px are scaled by Instagram, not refused);
// every single video is a Reel: MP4/MOV, H.264/HEVC with AAC, 3 s–15 min, 23–60 fps, ≤1920 px wide, aspect
// 0.01:1 to 10:1 (9:16 recommended), ≤300 MB.
export const instagram: PlatformCapability = {
  platform: 'instagram',
  display_name: 'Instagram',
  character_limit: 2200,
  counting: 'characters',
  content_types: ['image', 'video'],
  media_required: true,
  max_images: 10,
  media: {
    image: { content_types: [JPEG], max_bytes: 8 * MB, min_aspect_ratio: 4 / 5, max_aspect_ratio: 1.91 },
    video: {
      content_types: [MP4, MOV],
      max_bytes: 300 * MB,
      max_width: 1920,
      min_aspect_ratio: 0.01,
      max_aspect_ratio: 10,
      min_duration_s: 3,
      max_duration_s: 15 * 60,
      min_fps: 23,
      max_fps: 60,
      video_codecs: ['h264', 'hevc'],
      audio_codecs: ['aac'],
    },
  },
  first_comment: true,
  threads: false,
};
