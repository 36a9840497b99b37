import type { ContentType, Platform } from '@spa/vocabulary';

/**
 * How a platform measures `character_limit`:
 * - `weighted`: X's twitter-text weighting (a URL counts 23, CJK and emoji count 2, Latin counts 1).
 * - `graphemes`: user-perceived characters (Unicode extended grapheme clusters), as Bluesky does.
 * - `characters`: Unicode code points. Some platforms count UTF-16 code units instead, which is
 *   larger only for astral characters (most emoji); code points are the agreed common measure.
 */
export type Counting = 'weighted' | 'graphemes' | 'characters';

/** MIME types accepted (entries may be `type/*` wildcards when the platform accepts any subtype) and the per-file size cap. */
export interface MediaRule {
  content_types: readonly string[];
  max_bytes: number;
}

export interface MediaLimits {
  image?: MediaRule;
  video?: MediaRule;
  document?: MediaRule;
}

/** Poll rules; present exactly on the platforms whose `content_types` include `poll`. */
export interface PollRules {
  min_options: number;
  max_options: number;
  /** Per option, counted in Unicode code points. */
  option_max_characters: number;
}

/**
 * One platform's capabilities. Field names are snake_case because the object is sent
 * as-is by GET /platforms; optional fields are absent (never `undefined`) when they do not apply.
 */
export interface PlatformCapability {
  platform: Platform;
  display_name: string;
  character_limit: number;
  counting: Counting;
  /** UTF-8 byte cap on the body, on top of `character_limit` (Bluesky). */
  byte_limit?: number;
  /** Lower body limit that applies when media is attached (Telegram captions). */
  caption_limit?: number;
  /** Limit of the separate title field (YouTube, Pinterest). */
  title_limit?: number;
  content_types: readonly ContentType[];
  /** A post must carry at least one image or video. */
  media_required: boolean;
  max_images?: number;
  media?: MediaLimits;
  poll?: PollRules;
  /** A first comment / reply can be published under the post. */
  first_comment: boolean;
  /** A multi-part thread (a chain of the author's own replies) can be published. */
  threads: boolean;
}
