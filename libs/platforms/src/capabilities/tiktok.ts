import type { PlatformCapability } from '../types.js';
import { GB, MB, JPEG, MOV, MP4, WEBM, WEBP } from './units.js';

// Video caption 2200, photo description 4000, photo title 90 (was [unverified]; now [3p], Zernio/Ayrshare);
// 2200 applies to both post kinds. photos ≤35, JPEG/WEBP ≤20 MB, video MP4/MOV/WebM ≤4 GB [3p]; no comments.
export const tiktok: PlatformCapability = {
  platform: 'tiktok',
  display_name: 'TikTok',
  character_limit: 2200,
  counting: 'characters',
  content_types: ['image', 'video'],
  media_required: true,
  max_images: 35,
  media: { image: { content_types: [JPEG, WEBP], max_bytes: 20 * MB }, video: { content_types: [MP4, MOV, WEBM], max_bytes: 4 * GB } },
  first_comment: false,
  threads: false,
};
