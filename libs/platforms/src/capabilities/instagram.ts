import type { PlatformCapability } from '../types.js';
import { MB, JPEG, MOV, MP4 } from './units.js';

// caption 2200 [code/3p]; carousel 10, JPEG ≤8 MB, Reels MP4/MOV ≤300 MB [3p]; comments [code].
export const instagram: PlatformCapability = {
  platform: 'instagram',
  display_name: 'Instagram',
  character_limit: 2200,
  counting: 'characters',
  content_types: ['image', 'video'],
  media_required: true,
  max_images: 10,
  media: { image: { content_types: [JPEG], max_bytes: 8 * MB }, video: { content_types: [MP4, MOV], max_bytes: 300 * MB } },
  first_comment: true,
  threads: false,
};
