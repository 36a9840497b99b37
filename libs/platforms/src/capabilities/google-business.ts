import type { PlatformCapability } from '../types.js';
import { MB, JPEG, PNG } from './units.js';

// summary 1500; a local post takes one photo by sourceUrl and no video
// (https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts; Postiz
// refuses video too [code]); photos JPEG/PNG, 10 KB–5 MB, at least 250x250
// (https://developers.google.com/my-business/content/upload-photos; the 10 KB floor has no field here).
// No comments.
export const googleBusiness: PlatformCapability = {
  platform: 'google_business',
  display_name: 'Google Business Profile',
  character_limit: 1500,
  counting: 'characters',
  content_types: ['text', 'image'],
  media_required: false,
  max_images: 1,
  media: { image: { content_types: [JPEG, PNG], max_bytes: 5 * MB, min_width: 250, min_height: 250 } },
  first_comment: false,
  threads: false,
};
