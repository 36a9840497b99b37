import type { PlatformCapability } from '../types.js';
import { GB } from './units.js';

// video only, title 100, description 5000 [code]; `video/*` ≤256 GB [doc];
// first comment via commentThreads.insert is [unverified] (Postiz doesn't do it) → false.
export const youtube: PlatformCapability = {
  platform: 'youtube',
  display_name: 'YouTube',
  character_limit: 5000,
  counting: 'characters',
  title_limit: 100,
  content_types: ['video'],
  media_required: true,
  media: { video: { content_types: ['video/*'], max_bytes: 256 * GB } },
  first_comment: false,
  threads: false,
};
