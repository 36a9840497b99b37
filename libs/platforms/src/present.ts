import { PLATFORMS } from '@spa/vocabulary';
import { CAPABILITIES } from './capabilities.js';
import { mediaHandling } from './media-handling.js';
import { PLATFORM_OPTION_FIELDS } from './options.js';
import type { MediaRule, PlatformCapability } from './types.js';

/**
 * The body of GET /platforms: one object per platform, in `PLATFORMS` order.
 *
 * The table is already in the public shape: snake_case fields, and fields that do not apply
 * (`max_images`, `media`, `poll`, `title_limit`, …) are absent rather than null. Everything is
 * sent, including `counting`, `byte_limit` and `caption_limit`: a client cannot reproduce our
 * length check (X weights URLs at 23, Bluesky counts graphemes and bytes) without them.
 * Each call returns fresh copies so callers cannot mutate the shared table. Each media rule also says which
 * other types the media pipeline converts to its first accepted type (`converted_from`); any other type is
 * refused. `options` lists the post-content `metadata` fields the platform reads (board_id, privacy_level...).
 */
export function presentCapabilities(): PresentedCapability[] {
  return PLATFORMS.map((platform) => {
    const caps = structuredClone(CAPABILITIES[platform]) as PresentedCapability;
    const handling = mediaHandling(platform);
    for (const kind of ['image', 'video'] as const) {
      const rule = caps.media?.[kind];
      if (rule) rule.converted_from = [...(handling[kind]?.converted ?? [])];
    }
    caps.options = [...PLATFORM_OPTION_FIELDS[platform]];
    return caps;
  });
}

/** A capability as GET /platforms sends it: the table, plus what the media pipeline converts and which `metadata` options the platform reads. */
export type PresentedCapability = PlatformCapability & {
  media?: Partial<Record<'image' | 'video' | 'document', MediaRule & { converted_from?: string[] }>>;
  options: string[];
};
