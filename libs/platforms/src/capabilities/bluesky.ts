import type { PlatformCapability } from '../types.js';
import { MP4 } from './units.js';

// 300 graphemes / 3000 bytes (https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/post.json);
// 4 images of any image type (https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/embed/images.json).
// The lexicon (and the sandbox) allow 2,000,000 bytes a blob; the table keeps 1,000,000, the historical limit
// PDSes on older lexicons still enforce, so images are made to fit every PDS. One video per post through the video service, MP4 ≤100 MB and ≤3 minutes
// (https://bsky.app/profile/bsky.app/post/3lk26lxn6sk2u; the embed's lexicon allows 300 MB, the service 100 MB);
// Bluesky transcodes it, so no codec or frame-rate bound. Reply records [local].
export const bluesky: PlatformCapability = {
  platform: 'bluesky',
  display_name: 'Bluesky',
  character_limit: 300,
  counting: 'graphemes',
  byte_limit: 3000,
  content_types: ['text', 'image', 'video'],
  media_required: false,
  max_images: 4,
  media: { image: { content_types: ['image/*'], max_bytes: 1_000_000 }, video: { content_types: [MP4], max_bytes: 100_000_000, max_duration_s: 180 } },
  first_comment: true,
  threads: true,
};
