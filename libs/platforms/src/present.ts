import { PLATFORMS } from '@spa/vocabulary';
import { CAPABILITIES } from './capabilities.js';
import type { PlatformCapability } from './types.js';

/**
 * The body of GET /platforms: one object per platform, in `PLATFORMS` order.
 *
 * The table is already in the public shape: snake_case fields, and fields that do not apply
 * (`max_images`, `media`, `poll`, `title_limit`, …) are absent rather than null. Everything is
 * sent, including `counting`, `byte_limit` and `caption_limit`: a client cannot reproduce our
 * length check (X weights URLs at 23, Bluesky counts graphemes and bytes) without them.
 * Each call returns fresh copies so callers cannot mutate the shared table.
 */
export function presentCapabilities(): PlatformCapability[] {
  return PLATFORMS.map((platform) => structuredClone(CAPABILITIES[platform]));
}
