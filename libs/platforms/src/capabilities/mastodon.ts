import type { PlatformCapability } from '../types.js';
import { MiB, GIF, JPEG, MOV, MP4, PNG, WEBM, WEBP } from './units.js';

// Defaults; real values are per instance (/api/v2/instance) [code/doc]. 500 chars, 4 attachments
// [3p/doc]; mastodon.social: images 16 MiB, video 103,809,024 B [doc]. The MIME list is a common
// subset of `supported_mime_types`. in_reply_to_id → comments & threads [code].
export const mastodon: PlatformCapability = {
  platform: 'mastodon',
  display_name: 'Mastodon',
  character_limit: 500,
  counting: 'characters',
  content_types: ['text', 'image', 'video'],
  media_required: false,
  max_images: 4,
  media: { image: { content_types: [JPEG, PNG, GIF, WEBP], max_bytes: 16 * MiB }, video: { content_types: [MP4, MOV, WEBM], max_bytes: 103_809_024 } },
  first_comment: true,
  threads: true,
};
