import type { PlatformCapability } from '../types.js';
import { MB, GIF, JPEG, MP4, PNG, WEBP } from './units.js';

// Postiz uses 32,768 [code]; the connector splits a body into NPF text blocks of ≤4096 code points.
// Per post: ≤30 image blocks and 1 uploaded video
// (https://github.com/tumblr/docs/blob/master/npf-spec.md#post-content-limits). Photos JPEG/PNG/GIF/WebP
// ≤10 MB (https://itstillworks.com/12762593/tumblr-picture-size-in-posts-and-links, [3p]); video MP4
// ≤100 MB and ≤5 minutes (https://classroom.synonym.com/tumblr-video-upload-size-limit-17481.html, [3p]):
// Tumblr's own help pages state no current figures, so the strictest published ones are used. No
// comments (reblog only).
export const tumblr: PlatformCapability = {
  platform: 'tumblr',
  display_name: 'Tumblr',
  character_limit: 32_768,
  counting: 'characters',
  content_types: ['text', 'image', 'video'],
  media_required: false,
  max_images: 30,
  media: {
    image: { content_types: [JPEG, PNG, GIF, WEBP], max_bytes: 10 * MB },
    video: { content_types: [MP4], max_bytes: 100 * MB, max_duration_s: 300 },
  },
  first_comment: false,
  threads: false,
};
