import type { PlatformCapability } from '../types.js';
import { GB, GIF, JPEG, PNG } from './units.js';

// `text` takes 40,000 but a section block 3000 [3p/doc]; Postiz posts blocks [code] → 3000.
// Image blocks by public URL [code]; files ≤1 GB [unverified]; the image count is
// [unverified] → conservative 10. thread_ts → comments & threads [code].
export const slack: PlatformCapability = {
  platform: 'slack',
  display_name: 'Slack',
  character_limit: 3000,
  counting: 'characters',
  content_types: ['text', 'image', 'video'],
  media_required: false,
  max_images: 10,
  media: { image: { content_types: [JPEG, PNG, GIF], max_bytes: 1 * GB }, video: { content_types: ['video/*'], max_bytes: 1 * GB } },
  first_comment: true,
  threads: true,
};
