import type { PlatformCapability } from '../types.js';
import { GB, MB, JPEG, MOV, MP4, PNG } from './units.js';

// 500 [code]; carousel 20, JPEG/PNG ≤8 MB, MOV/MP4 ≤1 GB [3p/doc]; replies via reply_to_id [code].
// The API also has polls [doc]; the product advertises polls for twitter and linkedin only.
export const threads: PlatformCapability = {
  platform: 'threads',
  display_name: 'Threads',
  character_limit: 500,
  counting: 'characters',
  content_types: ['text', 'image', 'video'],
  media_required: false,
  max_images: 20,
  media: { image: { content_types: [JPEG, PNG], max_bytes: 8 * MB }, video: { content_types: [MP4, MOV], max_bytes: 1 * GB } },
  first_comment: true,
  threads: true,
};
