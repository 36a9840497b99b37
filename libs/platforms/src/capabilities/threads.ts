import type { PlatformCapability } from '../types.js';
import { GB, MB, JPEG, MOV, MP4, PNG } from './units.js';

// 500 chars [code]; carousel 2–20 (https://developers.facebook.com/docs/threads/posts). Media per
// https://developers.facebook.com/docs/threads/overview#media-specifications: images JPEG/PNG ≤8 MB, aspect
// ratio up to 10:1 (Threads scales the width into 320–1440 itself); video MOV/MP4 ≤1 GB, ≤5 minutes,
// 23–60 fps, H.264/HEVC with AAC, at most 1920 columns, aspect 0.01:1–10:1. Replies via reply_to_id [code].
// The API also has polls [doc]; the product advertises polls for twitter and linkedin only.
export const threads: PlatformCapability = {
  platform: 'threads',
  display_name: 'Threads',
  character_limit: 500,
  counting: 'characters',
  content_types: ['text', 'image', 'video'],
  media_required: false,
  max_images: 20,
  media: {
    image: { content_types: [JPEG, PNG], max_bytes: 8 * MB, min_aspect_ratio: 0.1, max_aspect_ratio: 10 },
    video: {
      content_types: [MP4, MOV],
      max_bytes: 1 * GB,
      max_width: 1920,
      min_aspect_ratio: 0.01,
      max_aspect_ratio: 10,
      max_duration_s: 300,
      min_fps: 23,
      max_fps: 60,
      video_codecs: ['h264', 'hevc'],
      audio_codecs: ['aac'],
    },
  },
  first_comment: true,
  threads: true,
};
