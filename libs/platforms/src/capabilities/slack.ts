import type { PlatformCapability } from '../types.js';
import { GB, GIF, JPEG, MOV, MP4, PNG, WEBM, WEBP } from './units.js';

// Message text: Slack truncates past 40,000 characters and refuses longer with msg_too_long
// (https://docs.slack.dev/reference/methods/chat.postMessage/). Images and videos are shared as files
// through the external upload (files.getUploadURLExternal → upload → files.completeUploadExternal,
// https://docs.slack.dev/reference/methods/files.getUploadURLExternal/): any file up to 1 GB
// (https://slack.com/help/articles/201330736-Add-files-to-Slack); these types are shown inline. Slack
// documents no count per message: 10 files is our own cap [unverified]. thread_ts → comments & threads [code].
export const slack: PlatformCapability = {
  platform: 'slack',
  display_name: 'Slack',
  character_limit: 40_000,
  counting: 'characters',
  content_types: ['text', 'image', 'video'],
  media_required: false,
  max_images: 10,
  media: { image: { content_types: [JPEG, PNG, GIF, WEBP], max_bytes: 1 * GB }, video: { content_types: [MP4, MOV, WEBM], max_bytes: 1 * GB } },
  first_comment: true,
  threads: true,
};
