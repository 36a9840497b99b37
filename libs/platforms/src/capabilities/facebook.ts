import type { PlatformCapability } from '../types.js';
import { GB, MB, GIF, JPEG, MP4, PNG, WEBP } from './units.js';

// 63,206 [code]; 10 photos (Mixpost) [code]; image formats/"<4 MB" were [unverified]: JPEG/PNG/GIF/WebP
// is confirmed [3p] (which says 10 MB), 4 MB kept as the conservative cap. Video MP4 [code]; our
// presigned upload takes up to 1 GB, so 1 GB. Comments [code].
export const facebook: PlatformCapability = {
  platform: 'facebook',
  display_name: 'Facebook',
  character_limit: 63_206,
  counting: 'characters',
  content_types: ['text', 'image', 'video'],
  media_required: false,
  max_images: 10,
  media: { image: { content_types: [JPEG, PNG, GIF, WEBP], max_bytes: 4 * MB }, video: { content_types: [MP4], max_bytes: 1 * GB } },
  first_comment: true,
  threads: false,
};
