import type { PlatformCapability } from '../types.js';
import { MB, GIF, JPEG, MOV, MP4, PNG, WEBP } from './units.js';

// 280 weighted chars (Premium's 25k not assumed) [code]; 4 photos or 1 GIF or 1 video
// (https://docs.x.com/x-api/posts/create-post). Media per
// https://developer.x.com/en/docs/x-api/v1/media/upload-media/uploading-media/media-best-practices:
// images JPEG/PNG/WEBP/GIF ≤5 MB, 4x4–8192x8192 (an animated GIF may reach 15 MB; 5 MB kept for all images);
// video MP4/MOV, H.264 with AAC, ≤512 MB, 0.5–140 s, 32x32–1280x1024, aspect 1:3–3:1, ≤60 fps, uploaded
// in chunks and processed (https://docs.x.com/x-api/media/quickstart/media-upload-chunked).
// Poll 2–4 options ≤25 chars, not combinable with media [doc]; replies → first comment & threads [code].
export const twitter: PlatformCapability = {
  platform: 'twitter',
  display_name: 'X',
  character_limit: 280,
  counting: 'weighted',
  content_types: ['text', 'image', 'video', 'poll'],
  media_required: false,
  max_images: 4,
  media: {
    image: { content_types: [JPEG, PNG, WEBP, GIF], max_bytes: 5 * MB, min_width: 4, min_height: 4, max_width: 8192, max_height: 8192 },
    video: {
      content_types: [MP4, MOV],
      max_bytes: 512 * MB,
      min_width: 32,
      min_height: 32,
      max_width: 1280,
      max_height: 1024,
      min_aspect_ratio: 1 / 3,
      max_aspect_ratio: 3,
      min_duration_s: 0.5,
      max_duration_s: 140,
      max_fps: 60,
      video_codecs: ['h264'],
      audio_codecs: ['aac'],
    },
  },
  poll: { min_options: 2, max_options: 4, option_max_characters: 25 },
  first_comment: true,
  threads: true,
};
