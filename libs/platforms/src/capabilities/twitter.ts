import type { PlatformCapability } from '../types.js';
import { MB, GIF, JPEG, MP4, PNG, WEBP } from './units.js';

// 280 weighted chars (Premium's 25k not assumed) [code]; 4 photos or 1 GIF or 1 video [doc];
// JPEG/PNG/WEBP/GIF ≤5 MB (GIF alone may reach 15 MB; 5 MB kept for all images), MP4 ≤512 MB [doc];
// poll 2–4 options ≤25 chars, not combinable with media [doc]; replies → first comment & threads [code].
export const twitter: PlatformCapability = {
  platform: 'twitter',
  display_name: 'X',
  character_limit: 280,
  counting: 'weighted',
  content_types: ['text', 'image', 'video', 'poll'],
  media_required: false,
  max_images: 4,
  media: { image: { content_types: [JPEG, PNG, WEBP, GIF], max_bytes: 5 * MB }, video: { content_types: [MP4], max_bytes: 512 * MB } },
  poll: { min_options: 2, max_options: 4, option_max_characters: 25 },
  first_comment: true,
  threads: true,
};
