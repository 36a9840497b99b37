import type { PlatformCapability } from '../types.js';
import { GB } from './units.js';

// video only (one per post), title 100 (required: the title option or the text's first line), description
// 5000 bytes without < or > [doc: https://developers.google.com/youtube/v3/docs/videos]; `video/*` ≤256 GB
// [doc: videos.insert]; at most 12 hours long (YouTube's upload limit). First comment via
// commentThreads.insert is [unverified] (Postiz doesn't do it) → false.
export const youtube: PlatformCapability = {
  platform: 'youtube',
  display_name: 'YouTube',
  character_limit: 5000,
  counting: 'characters',
  title_limit: 100,
  content_types: ['video'],
  media_required: true,
  media: { video: { content_types: ['video/*'], max_bytes: 256 * GB, max_duration_s: 12 * 3600 } },
  first_comment: false,
  threads: false,
};
