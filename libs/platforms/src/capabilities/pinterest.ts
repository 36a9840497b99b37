import type { PlatformCapability } from '../types.js';
import { GB, MB, GIF, JPEG, MOV, MP4, PNG, WEBP } from './units.js';

// description 500, title 100 [3p/code]; carousel up to 5 [3p/code]; image ≤20 MB,
// video MP4/MOV/M4V "1–2 GB" → 1 GB [3p]; no comments.
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
    video: { content_types: [MP4, MOV, 'video/x-m4v'], max_bytes: 1 * GB },
  },
  first_comment: false,
  threads: false,
};
