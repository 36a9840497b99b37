import type { PlatformCapability } from '../types.js';
import { GB, MB, GIF, JPEG, MOV, MP4, PNG, WEBP } from './units.js';

// 63,206 [code]; 10 photos (Mixpost) [code]. Photos: JPEG/BMP/PNG/GIF/TIFF [doc:
// https://developers.facebook.com/docs/graph-api/photo-uploads/], and WebP and HEIF, which Facebook's own
// upload refusal (code 100, subcode 1366046) names with its limit "less than 4 MB", as the sandbox enforces.
// Video (file_url) MP4/MOV [code]; Facebook takes up to 10 GB and 240 minutes, our presigned upload up to
// 1 GB, so 1 GB. A post is one video or photos. Comments [code].
export const facebook: PlatformCapability = {
  platform: 'facebook',
  display_name: 'Facebook',
  character_limit: 63_206,
  counting: 'characters',
  content_types: ['text', 'image', 'video'],
  media_required: false,
  max_images: 10,
  media: {
    image: { content_types: [JPEG, PNG, GIF, WEBP, 'image/bmp', 'image/tiff'], max_bytes: 4 * MB },
    video: { content_types: [MP4, MOV], max_bytes: 1 * GB, min_duration_s: 1, max_duration_s: 240 * 60 },
  },
  first_comment: true,
  threads: false,
};
