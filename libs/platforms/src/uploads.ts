import type { Platform } from '@spa/vocabulary';
import { CAPABILITIES } from './capabilities.js';
import type { MediaRule } from './types.js';

/** Platforms that accept base64 uploads (POST /media/uploads `platform`). */
export const UPLOAD_PLATFORMS = [
  'facebook',
  'instagram',
  'pinterest',
  'tiktok',
  'threads',
  'discord',
  'slack',
  'telegram',
  'tumblr',
  'twitter',
  'mastodon',
  'bluesky',
] as const satisfies readonly Platform[];
export type UploadPlatform = (typeof UPLOAD_PLATFORMS)[number];

/** The contract's images-only platforms for uploads (their videos go through the presigned upload, or not at all). */
export const IMAGES_ONLY_UPLOAD_PLATFORMS: readonly UploadPlatform[] = ['facebook', 'pinterest', 'threads'];

export type UploadKind = 'image' | 'video';

/**
 * Platforms whose uploads go to the platform itself through routes of their own rather than to our
 * storage: LinkedIn (POST /linkedin/image_uploads and /linkedin/video_uploads answer an asset URN).
 * Their limits come from the same table (LinkedIn: images 5 MB, MP4 videos 500 MB).
 */
export type AssetUploadPlatform = 'linkedin';

/** The media rules an upload for `platform` is checked against: the capability table, images only where the contract says so. */
export function uploadRules(platform: UploadPlatform | AssetUploadPlatform): Partial<Record<UploadKind, MediaRule>> {
  const media = CAPABILITIES[platform].media ?? {};
  const imagesOnly = (IMAGES_ONLY_UPLOAD_PLATFORMS as readonly string[]).includes(platform);
  return { ...(media.image ? { image: media.image } : {}), ...(media.video && !imagesOnly ? { video: media.video } : {}) };
}

/** The largest file an upload for `platform` may carry. */
export function maxUploadBytes(platform: UploadPlatform | AssetUploadPlatform): number {
  return Math.max(0, ...Object.values(uploadRules(platform)).map((r) => r.max_bytes));
}

/** Whether a MIME type is listed by a rule (entries may be `type/*` wildcards). */
export function ruleAccepts(rule: MediaRule, contentType: string): boolean {
  return rule.content_types.some((t) => t === contentType || (t.endsWith('/*') && contentType.startsWith(t.slice(0, -1))));
}
