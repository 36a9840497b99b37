import type { PlatformCapability } from '../types.js';
import { MB, GIF, JPEG, MP4, PNG } from './units.js';

// commentary 3000 [code]; multiImage 2–20
// (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/multiimage-post-api);
// image JPG/PNG/GIF under 36,152,320 pixels, GIFs ≤250 frames (…/shares/images-api), 5 MB [3p]; video MP4
// 3 s–30 min, 75 KB–500 MB (…/shares/videos-api); document PDF/PPT/PPTX/DOC/DOCX ≤100 MB, ≤300 pages
// (…/shares/documents-api); poll 2–4 options ≤30 chars, no media [doc]; comments via socialActions [code];
// no threads.
export const linkedin: PlatformCapability = {
  platform: 'linkedin',
  display_name: 'LinkedIn',
  character_limit: 3000,
  counting: 'characters',
  content_types: ['text', 'image', 'video', 'document', 'poll'],
  media_required: false,
  max_images: 20,
  media: {
    image: { content_types: [JPEG, PNG, GIF], max_bytes: 5 * MB, max_pixels: 36_152_319, max_frames: 250 },
    video: { content_types: [MP4], max_bytes: 500 * MB, min_duration_s: 3, max_duration_s: 30 * 60 },
    document: {
      content_types: [
        'application/pdf',
        'application/vnd.ms-powerpoint',
        'application/vnd.openxmlformats-officedocument.presentationml.presentation',
        'application/msword',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ],
      max_bytes: 100 * MB,
    },
  },
  poll: { min_options: 2, max_options: 4, option_max_characters: 30 },
  first_comment: true,
  threads: false,
};
