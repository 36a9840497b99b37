import type { PlatformCapability } from '../types.js';
import { MiB } from './units.js';

// 2000 [3p]; 10 attachments (Discord OpenAPI schema `attachments.maxItems: 10`) [3p];
// any file, 10 MiB default upload limit [unverified] → the current lowest default. Postiz
// opens a thread on the message for comments [code], so both flags are true.
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
