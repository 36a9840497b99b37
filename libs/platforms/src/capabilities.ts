import type { Platform } from '@spa/vocabulary';
import type { PlatformCapability } from './types.js';

// Facts come from /work/shared/platforms.md; each entry cites its confidence marks:
// [doc] platform docs, [code] open-source integrations (Postiz, Mixpost), [3p] commercial posting
// APIs' docs, [local] checked against a real server. Facts that were only [unverified] are marked
// "[unverified]" here and set to the conservative value.
// Sizes use decimal units (MB = 1,000,000 bytes) unless the source states binary units: when a
// source says "5 MB" the decimal reading is the smaller, safer cap.
const MB = 1_000_000;
const GB = 1_000_000_000;
const MiB = 1024 * 1024;

const JPEG = 'image/jpeg';
const PNG = 'image/png';
const GIF = 'image/gif';
const WEBP = 'image/webp';
const MP4 = 'video/mp4';
const MOV = 'video/quicktime';
const WEBM = 'video/webm';

export const CAPABILITIES: Readonly<Record<Platform, PlatformCapability>> = {
  // 280 weighted chars (Premium's 25k not assumed) [code]; 4 photos or 1 GIF or 1 video [doc];
  // JPEG/PNG/WEBP/GIF ≤5 MB (GIF alone may reach 15 MB; 5 MB kept for all images), MP4 ≤512 MB [doc];
  // poll 2–4 options ≤25 chars, not combinable with media [doc]; replies → first comment & threads [code].
  twitter: {
    platform: 'twitter',
    display_name: 'X',
    character_limit: 280,
    counting: 'weighted',
    content_types: ['text', 'image', 'video', 'poll'],
    media_required: false,
    max_images: 4,
    media: { image: { content_types: [JPEG, PNG, WEBP, GIF], max_bytes: 5 * MB }, video: { content_types: [MP4], max_bytes: 512 * MB } },
    poll: { min_options: 2, max_options: 4, option_max_characters: 25 },
    first_comment: true,
    threads: true,
  },
  // commentary 3000 [code]; multiImage up to 20 [doc]; image JPG/PNG/GIF ~5 MB, video MP4 ≤500 MB,
  // document PDF/PPT/PPTX/DOC/DOCX ≤100 MB [3p]; poll 2–4 options ≤30 chars, no media [doc];
  // comments via socialActions [code]; no threads.
  linkedin: {
    platform: 'linkedin',
    display_name: 'LinkedIn',
    character_limit: 3000,
    counting: 'characters',
    content_types: ['text', 'image', 'video', 'document', 'poll'],
    media_required: false,
    max_images: 20,
    media: {
      image: { content_types: [JPEG, PNG, GIF], max_bytes: 5 * MB },
      video: { content_types: [MP4], max_bytes: 500 * MB },
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
  },
  // video only, title 100, description 5000 [code]; `video/*` ≤256 GB [doc];
  // first comment via commentThreads.insert is [unverified] (Postiz doesn't do it) → false.
  youtube: {
    platform: 'youtube',
    display_name: 'YouTube',
    character_limit: 5000,
    counting: 'characters',
    title_limit: 100,
    content_types: ['video'],
    media_required: true,
    media: { video: { content_types: ['video/*'], max_bytes: 256 * GB } },
    first_comment: false,
    threads: false,
  },
  // caption 2200 [code/3p]; carousel 10, JPEG ≤8 MB, Reels MP4/MOV ≤300 MB [3p]; comments [code].
  instagram: {
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
  },
  // 500 [code]; carousel 20, JPEG/PNG ≤8 MB, MOV/MP4 ≤1 GB [3p/doc]; replies via reply_to_id [code].
  // The API also has polls [doc]; the product advertises polls for twitter and linkedin only.
  threads: {
    platform: 'threads',
    display_name: 'Threads',
    character_limit: 500,
    counting: 'characters',
    content_types: ['text', 'image', 'video'],
    media_required: false,
    max_images: 20,
    media: { image: { content_types: [JPEG, PNG], max_bytes: 8 * MB }, video: { content_types: [MP4, MOV], max_bytes: 1 * GB } },
    first_comment: true,
    threads: true,
  },
  // description 500, title 100 [3p/code]; carousel up to 5 [3p/code]; image ≤20 MB,
  // video MP4/MOV/M4V "1–2 GB" → 1 GB [3p]; no comments.
  pinterest: {
    platform: 'pinterest',
    display_name: 'Pinterest',
    character_limit: 500,
    counting: 'characters',
    title_limit: 100,
    content_types: ['image', 'video'],
    media_required: true,
    max_images: 5,
    media: {
      image: { content_types: [JPEG, PNG, WEBP, GIF, 'image/bmp', 'image/tiff'], max_bytes: 20 * MB },
      video: { content_types: [MP4, MOV, 'video/x-m4v'], max_bytes: 1 * GB },
    },
    first_comment: false,
    threads: false,
  },
  // Video caption 2200, photo description 4000, photo title 90 (was [unverified]; now [3p], Zernio/Ayrshare);
  // 2200 applies to both post kinds. photos ≤35, JPEG/WEBP ≤20 MB, video MP4/MOV/WebM ≤4 GB [3p]; no comments.
  tiktok: {
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
  },
  // 300 graphemes / 3000 bytes, 4 images [local]. The lexicon in @atproto/api 0.21.0 allows
  // 2,000,000-byte images [local], but older PDSes validate against the historical 1,000,000 (which
  // Postiz also targets [code]), so 1 MB is used. Video MP4, lexicon max 300 MB [local]; reply records [local].
  bluesky: {
    platform: 'bluesky',
    display_name: 'Bluesky',
    character_limit: 300,
    counting: 'graphemes',
    byte_limit: 3000,
    content_types: ['text', 'image', 'video'],
    media_required: false,
    max_images: 4,
    media: { image: { content_types: ['image/*'], max_bytes: 1 * MB }, video: { content_types: [MP4], max_bytes: 300 * MB } },
    first_comment: true,
    threads: true,
  },
  // Defaults; real values are per instance (/api/v2/instance) [code/doc]. 500 chars, 4 attachments
  // [3p/doc]; mastodon.social: images 16 MiB, video 103,809,024 B [doc]. The MIME list is a common
  // subset of `supported_mime_types`. in_reply_to_id → comments & threads [code].
  mastodon: {
    platform: 'mastodon',
    display_name: 'Mastodon',
    character_limit: 500,
    counting: 'characters',
    content_types: ['text', 'image', 'video'],
    media_required: false,
    max_images: 4,
    media: { image: { content_types: [JPEG, PNG, GIF, WEBP], max_bytes: 16 * MiB }, video: { content_types: [MP4, MOV, WEBM], max_bytes: 103_809_024 } },
    first_comment: true,
    threads: true,
  },
  // 63,206 [code]; 10 photos (Mixpost) [code]; image formats/"<4 MB" were [unverified]: JPEG/PNG/GIF/WebP
  // is confirmed [3p] (which says 10 MB), 4 MB kept as the conservative cap. Video MP4 [code]; our
  // presigned upload takes up to 1 GB, so 1 GB. Comments [code].
  facebook: {
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
  },
  // summary 1500, 1 photo JPEG/PNG ≤5 MB, no video [code/3p]; no comments.
  google_business: {
    platform: 'google_business',
    display_name: 'Google Business Profile',
    character_limit: 1500,
    counting: 'characters',
    content_types: ['text', 'image'],
    media_required: false,
    max_images: 1,
    media: { image: { content_types: [JPEG, PNG], max_bytes: 5 * MB } },
    first_comment: false,
    threads: false,
  },
  // 2000 [3p]; 10 attachments (Discord OpenAPI schema `attachments.maxItems: 10`) [3p];
  // any file, 10 MiB default upload limit [unverified] → the current lowest default. Postiz
  // opens a thread on the message for comments [code], so both flags are true.
  discord: {
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
  },
  // message 4096, caption 1024 [code/3p]; media group up to 10 [code/3p]; photos ≤10 MB and other
  // files ≤50 MB when uploaded, 5/20 MB when sent by URL [3p] → the URL caps. reply_to_message_id
  // [code]; channels do not show reply chains as threads.
  telegram: {
    platform: 'telegram',
    display_name: 'Telegram',
    character_limit: 4096,
    counting: 'characters',
    caption_limit: 1024,
    content_types: ['text', 'image', 'video'],
    media_required: false,
    max_images: 10,
    media: { image: { content_types: [JPEG, PNG, WEBP, GIF], max_bytes: 5 * MB }, video: { content_types: [MP4], max_bytes: 20 * MB } },
    first_comment: true,
    threads: false,
  },
  // Postiz uses 32,768 [code]; 30 images or 1 video [3p]; formats JPEG/PNG/GIF/WEBP + MP4 and sizes
  // [unverified] → conservative 10 MB images / 100 MB video. No comments (reblog only).
  tumblr: {
    platform: 'tumblr',
    display_name: 'Tumblr',
    character_limit: 32_768,
    counting: 'characters',
    content_types: ['text', 'image', 'video'],
    media_required: false,
    max_images: 30,
    media: { image: { content_types: [JPEG, PNG, GIF, WEBP], max_bytes: 10 * MB }, video: { content_types: [MP4], max_bytes: 100 * MB } },
    first_comment: false,
    threads: false,
  },
  // `text` takes 40,000 but a section block 3000 [3p/doc]; Postiz posts blocks [code] → 3000.
  // Image blocks by public URL [code]; files ≤1 GB [unverified]; the image count is
  // [unverified] → conservative 10. thread_ts → comments & threads [code].
  slack: {
    platform: 'slack',
    display_name: 'Slack',
    character_limit: 3000,
    counting: 'characters',
    content_types: ['text', 'image', 'video'],
    media_required: false,
    max_images: 10,
    media: { image: { content_types: [JPEG, PNG, GIF], max_bytes: 1 * GB }, video: { content_types: ['video/*'], max_bytes: 1 * GB } },
    first_comment: true,
    threads: true,
  },
};
