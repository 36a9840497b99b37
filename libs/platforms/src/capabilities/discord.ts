import type { PlatformCapability } from '../types.js';
import { MiB } from './units.js';

// Content 2000 characters and at most 10 files (files[0..9]) per message
// (https://discord.com/developers/docs/resources/message#create-message). Any file type; each file
// at most 10 MiB, the default for users, bots and webhooks without Nitro or server boosts
// (https://discord.com/developers/docs/reference#uploading-files). Postiz opens a thread on the message
// for comments [code], so both flags are true.
export const discord: PlatformCapability = {
  platform: 'discord',
  display_name: 'Discord',
  character_limit: 2000,
  counting: 'characters',
  content_types: ['text', 'image', 'video'],
  media_required: false,
  max_images: 10,
  media: { image: { content_types: ['image/*'], max_bytes: 10 * MiB }, video: { content_types: ['video/*'], max_bytes: 10 * MiB } },
  first_comment: true,
  threads: true,
};
