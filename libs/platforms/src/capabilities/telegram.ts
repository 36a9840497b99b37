import type { PlatformCapability } from '../types.js';
import { MB, GIF, JPEG, MP4, PNG, WEBP } from './units.js';

// message 4096, caption 1024 [code/3p]; media group up to 10 [code/3p]; photos ≤10 MB and other
// files ≤50 MB when uploaded, 5/20 MB when sent by URL [3p] → the URL caps. reply_to_message_id
// [code]; channels do not show reply chains as threads.
export const telegram: PlatformCapability = {
  platform: 'telegram',
  display_name: 'Telegram',
  character_limit: 4096,
  counting: 'characters',
  caption_limit: 1024,
  content_types: ['text', 'image', 'video'],
  media_required: false,
  max_images: 10,
  media: { image: { content_types: [JPEG, PNG, WEBP, GIF], max_bytes: 5 * MB }, video: { content_types: [MP4], max_bytes: 20 * MB } },
  first_comment: true,
  threads: false,
};
