import type { InspectedMedia } from '../../media/inspect.js';
import { mediaViolation, type SandboxMediaRule } from '../../media/rules.js';
import type { PlatformRules } from '../../router.js';

const MEDIA_TRANSFER = 'https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide';
const DIRECT_POST = 'https://developers.tiktok.com/doc/content-posting-api-reference-direct-post';
const PHOTO_POST = 'https://developers.tiktok.com/doc/content-posting-api-reference-photo-post';
const STATUS = 'https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status';

/** TikTok's video restrictions; the duration limit is the creator's own `max_video_post_duration_sec`, checked beside this rule. */
export const TIKTOK_VIDEO: SandboxMediaRule = {
  types: ['video/mp4', 'video/webm', 'video/quicktime'],
  max_bytes: 4 * 1024 ** 3,
  min_width: 360,
  min_height: 360,
  max_width: 4096,
  max_height: 4096,
  min_fps: 23,
  max_fps: 60,
  video_codecs: ['h264', 'hevc', 'vp8', 'vp9'],
  source: MEDIA_TRANSFER,
};

/** TikTok's image restrictions for photo posts: WebP or JPEG, at most 1080p, 20 MB. */
export const TIKTOK_PHOTO: SandboxMediaRule = {
  types: ['image/jpeg', 'image/webp'],
  max_bytes: 20 * 1024 ** 2,
  max_pixels: 1920 * 1080,
  source: MEDIA_TRANSFER,
};

export const TIKTOK_PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];

export const TIKTOK_RULES: PlatformRules = {
  media: { video: TIKTOK_VIDEO, image: TIKTOK_PHOTO },
  other: [
    { rule: "post_info.privacy_level is required and must be one of the creator's privacy_level_options (400 privacy_level_option_mismatch)", source: DIRECT_POST },
    { rule: "video duration at most the creator's max_video_post_duration_sec (creator_info/query); FAILED duration_check_failed", source: DIRECT_POST },
    { rule: 'video title ≤ 2200 characters; photo title ≤ 90, description ≤ 4000', source: PHOTO_POST },
    { rule: 'photo posts: 1–35 photo_images by PULL_FROM_URL, photo_cover_index within them', source: PHOTO_POST },
    {
      rule: 'FILE_UPLOAD: chunk_size 5–64 MB (a video under 5 MB whole), total_chunk_count = video_size / chunk_size rounded down (1–1000), the last chunk ≤ 128 MB carrying the rest; chunks PUT in order with Content-Range (206, then 201; 416 otherwise); the upload URL expires after an hour (403)',
      source: MEDIA_TRANSFER,
    },
    {
      rule: 'media that breaks the rules is refused while processing: status FAILED with fail_reason (file_format_check_failed, duration_check_failed, frame_rate_check_failed, picture_size_check_failed, video_pull_failed, photo_pull_failed)',
      source: STATUS,
    },
  ],
};

/** TikTok's `fail_reason` for media that breaks a rule (undefined when it passes); `maxSeconds` is the creator's limit. */
export function tiktokFailReason(media: InspectedMedia, rule: SandboxMediaRule, maxSeconds?: number): string | undefined {
  const problem = mediaViolation(media, rule);
  if (problem) {
    if (/frame rate/.test(problem)) return 'frame_rate_check_failed';
    if (/width|height|pixels/.test(problem)) return 'picture_size_check_failed';
    if (/duration/.test(problem)) return 'duration_check_failed';
    return 'file_format_check_failed';
  }
  if (maxSeconds !== undefined && media.kind === 'video' && (media.duration_s ?? 0) > maxSeconds) return 'duration_check_failed';
  return undefined;
}
