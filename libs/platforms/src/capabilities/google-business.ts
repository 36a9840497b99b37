import type { PlatformCapability } from '../types.js';
import { MB, JPEG, PNG } from './units.js';

// summary 1500, 1 photo JPEG/PNG ≤5 MB, no video [code/3p]; no comments.
export const googleBusiness: PlatformCapability = {
  platform: 'google_business',
  display_name: 'Google Business Profile',
  character_limit: 1500,
  counting: 'characters',
  content_types: ['text', 'image'],
  media_required: false,
  max_images: 1,
  media: { image: { content_types: [JPEG, PNG], max_bytes: 5 * MB } },
  first_comment: false,
  threads: false,
};
