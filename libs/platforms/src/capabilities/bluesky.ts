import type { PlatformCapability } from '../types.js';
import { MB, MP4 } from './units.js';

// 300 graphemes / 3000 bytes, 4 images [local]. The lexicon in @atproto/api 0.21.0 allows
// 2,000,000-byte images [local], but older PDSes validate against the historical 1,000,000 (which
// Postiz also targets [code]), so 1 MB is used. Video MP4, lexicon max 300 MB [local]; reply records [local].
export const bluesky: PlatformCapability = {
  platform: 'bluesky',
  display_name: 'Bluesky',
  character_limit: 300,
  counting: 'graphemes',
  byte_limit: 3000,
  content_types: ['text', 'image', 'video'],
  media_required: false,
  max_images: 4,
  media: { image: { content_types: ['image/*'], max_bytes: 1 * MB }, video: { content_types: [MP4], max_bytes: 300 * MB } },
  first_comment: true,
  threads: true,
};
