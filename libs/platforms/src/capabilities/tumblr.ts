import type { PlatformCapability } from '../types.js';
import { MB, GIF, JPEG, MP4, PNG, WEBP } from './units.js';

// Postiz uses 32,768 [code]; 30 images or 1 video [3p]; formats JPEG/PNG/GIF/WEBP + MP4 and sizes
// [unverified] → conservative 10 MB images / 100 MB video. No comments (reblog only).
export const tumblr: PlatformCapability = {
  platform: 'tumblr',
  display_name: 'Tumblr',
  character_limit: 32_768,
  counting: 'characters',
  content_types: ['text', 'image', 'video'],
  media_required: false,
  max_images: 30,
  media: { image: { content_types: [JPEG, PNG, GIF, WEBP], max_bytes: 10 * MB }, video: { content_types: [MP4], max_bytes: 100 * MB } },
  first_comment: false,
  threads: false,
};
