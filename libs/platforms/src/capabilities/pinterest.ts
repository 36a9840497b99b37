import type { PlatformCapability } from '../types.js';
import { GB, MB, GIF, JPEG, MOV, MP4, PNG, WEBP } from './units.js';

// description 500, title 100 [3p/code]; carousel 2–5 images [3p/code]; one video per pin, with a cover.
// Image JPEG/PNG/WebP/GIF/BMP/TIFF ≤20 MB; video MP4/MOV/M4V, H.264/H.265, ≤2 GB, 4 s–15 min, aspect 1:2 to
// 1.91:1 [3p: https://www.ayrshare.com/docs/media-guidelines/pinterest, as the sandbox enforces].
// No comments.
export const pinterest: PlatformCapability = {
  platform: 'pinterest',
  display_name: 'Pinterest',
  character_limit: 500,
  counting: 'characters',
  title_limit: 100,
  content_types: ['image', 'video'],
  media_required: true,
  max_images: 5,
  media: {
    image: { content_types: [JPEG, PNG, WEBP, GIF, 'image/bmp', 'image/tiff'], max_bytes: 20 * MB },
    video: {
      content_types: [MP4, MOV, 'video/x-m4v'],
      max_bytes: 2 * GB,
      min_duration_s: 4,
      max_duration_s: 15 * 60,
      min_aspect_ratio: 1 / 2,
      max_aspect_ratio: 1.91,
      video_codecs: ['h264', 'hevc'],
    },
  },
  first_comment: false,
  threads: false,
};
