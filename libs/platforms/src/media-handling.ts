import type { Platform } from '@spa/vocabulary';
import { CAPABILITIES } from './capabilities.js';
import { ruleAccepts } from './uploads.js';

/**
 * The image and video types the media pipeline reads (sharp for images, ffmpeg for videos) and so can
 * convert to a type a platform takes. HEIC is not among them: the image library's HEIF support reads
 * AVIF only (HEVC-coded HEIC needs a codec it does not ship).
 */
export const CONVERTIBLE_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff', 'image/bmp'] as const;
export const CONVERTIBLE_VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-m4v'] as const;

/** Per media kind: the types published as they are, and the types converted to the first of them at publish. */
export interface MediaHandling {
  accepted: readonly string[];
  converted: readonly string[];
}

/**
 * What happens to each common media type on `platform`: published as is, converted (to the first accepted
 * type), or refused (every type in neither list, and every kind the platform has no rule for).
 */
export function mediaHandling(platform: Platform): Partial<Record<'image' | 'video', MediaHandling>> {
  const media = CAPABILITIES[platform].media ?? {};
  const handling: Partial<Record<'image' | 'video', MediaHandling>> = {};
  for (const [kind, convertible] of [
    ['image', CONVERTIBLE_IMAGE_TYPES],
    ['video', CONVERTIBLE_VIDEO_TYPES],
  ] as const) {
    const rule = media[kind];
    if (!rule) continue;
    handling[kind] = { accepted: rule.content_types, converted: convertible.filter((type) => !ruleAccepts(rule, type)) };
  }
  return handling;
}
