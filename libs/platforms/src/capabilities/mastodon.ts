import type { PlatformCapability } from '../types.js';
import { MiB, GIF, JPEG, MOV, MP4, PNG, WEBM, WEBP } from './units.js';

// Defaults; real values are per instance (/api/v2/instance configuration,
// https://docs.joinmastodon.org/entities/Instance/#configuration), checked against the account's instance
// in the dry run. mastodon.social: 500 chars (URLs count 23), 4 attachments, images 16 MiB and
// 33,177,600 pixels, video 103,809,024 B, 8,294,400 pixels, 120 fps
// (https://github.com/mastodon/mastodon/discussions/26709). The MIME list is a common subset of
// `supported_mime_types`. in_reply_to_id → comments & threads [code].
export const mastodon: PlatformCapability = {
  platform: 'mastodon',
  display_name: 'Mastodon',
  character_limit: 500,
  counting: 'characters',
  content_types: ['text', 'image', 'video'],
  media_required: false,
  max_images: 4,
  media: {
    image: { content_types: [JPEG, PNG, GIF, WEBP], max_bytes: 16 * MiB, max_pixels: 33_177_600 },
    video: { content_types: [MP4, MOV, WEBM], max_bytes: 103_809_024, max_pixels: 8_294_400, max_fps: 120 },
  },
  first_comment: true,
  threads: true,
};
