import type { PlatformCapability } from '../types.js';
import { GIF, JPEG, MiB, MP4, PNG, WEBP } from './units.js';

// Message 4096, caption 1024 (https://core.telegram.org/bots/api#sendmessage); a media group takes 2–10
// photos and videos (https://core.telegram.org/bots/api#sendmediagroup). The connector uploads the bytes
// (multipart), so the upload limits apply: photos ≤10 MB with width + height ≤10000 and an aspect ratio
// ≤20 (https://core.telegram.org/bots/api#sendphoto), videos MPEG4 ≤50 MB
// (https://core.telegram.org/bots/api#sendvideo, #sending-files). reply_parameters [code]; channels do
// not show reply chains as threads. Width and height ≤5000 each is our bound that keeps their sum ≤10000.
export const telegram: PlatformCapability = {
  platform: 'telegram',
  display_name: 'Telegram',
  character_limit: 4096,
  counting: 'characters',
  caption_limit: 1024,
  content_types: ['text', 'image', 'video'],
  media_required: false,
  max_images: 10,
  media: {
    image: { content_types: [JPEG, PNG, WEBP, GIF], max_bytes: 10 * MiB, min_aspect_ratio: 1 / 20, max_aspect_ratio: 20, max_width: 5000, max_height: 5000 },
    video: { content_types: [MP4], max_bytes: 50 * MiB },
  },
  first_comment: true,
  threads: false,
};
