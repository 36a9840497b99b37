import type { ContentType, Platform } from '@spa/vocabulary';

/**
 * How a platform measures `character_limit`:
 * - `weighted`: X's twitter-text weighting (a URL counts 23, CJK and emoji count 2, Latin counts 1).
 * - `graphemes`: user-perceived characters (Unicode extended grapheme clusters), as Bluesky does.
 * - `characters`: Unicode code points. Some platforms count UTF-16 code units instead, which is
 *   larger only for astral characters (most emoji); code points are the agreed common measure.
 */
export type Counting = 'weighted' | 'graphemes' | 'characters';

/**
 * What a platform takes of one kind of media. `content_types` are published as they are (entries may be
 * `type/*` wildcards when the platform accepts any subtype); every other image or video type is converted
 * by the media pipeline to the first entry (never a wildcard for a platform that converts). The bounds
 * below are optional: absent means the platform documents none. Aspect ratios are width / height.
 */
export interface MediaRule {
  content_types: readonly string[];
  max_bytes: number;
  min_width?: number;
  min_height?: number;
  max_width?: number;
  max_height?: number;
  /** Width x height, on top of the per-side bounds. */
  max_pixels?: number;
  min_aspect_ratio?: number;
  max_aspect_ratio?: number;
  /** Videos: seconds. */
  min_duration_s?: number;
  max_duration_s?: number;
  /** Videos: frames per second. */
  min_fps?: number;
  max_fps?: number;
  /** Videos: accepted video codecs as ffprobe names them (`h264`, `hevc`, `vp9`...). */
  video_codecs?: readonly string[];
  /** Videos: accepted audio codecs as ffprobe names them (`aac`, `opus`...); a video without audio is always accepted. */
  audio_codecs?: readonly string[];
  /** Animated images (GIF): at most this many frames; 1 means animations are converted to their first frame. */
  max_frames?: number;
}

/**
 * What a media file is, read from its bytes (never from what a client declared): the media service
 * probes it at upload (images with sharp, videos with ffprobe) and stores it with the media record.
 */
export interface MediaFacts {
  kind: 'image' | 'video' | 'document';
  content_type: string;
  bytes: number;
  width?: number;
  height?: number;
  /** Animated images: frame count (1 for a still). */
  frames?: number;
  duration_s?: number;
  fps?: number;
  video_codec?: string;
  /** Absent when the video has no audio track. */
  audio_codec?: string;
}

/**
 * Per-platform choices of one post content, kept in its `metadata` beside `media` and honoured at
 * publish. Each platform reads only its own fields; the gateway and the posts service refuse the
 * fields of other platforms and values outside each field's set.
 */
export interface PostOptions {
  /** Pinterest: the board to pin to (one of the account's boards); `link`: where the pin leads; `title`: the pin's title. */
  board_id?: string;
  link?: string;
  /** Pinterest pin title, YouTube video title. */
  title?: string;
  /** TikTok: one of the creator's `privacy_level_options` (required: TikTok forbids a default). */
  privacy_level?: string;
  disable_comment?: boolean;
  disable_duet?: boolean;
  disable_stitch?: boolean;
  /** YouTube: `public`, `unlisted` or `private`. */
  privacy_status?: 'public' | 'unlisted' | 'private';
  /** How the media pipeline fits an image whose aspect ratio is outside the platform's range: pad (default) or crop. */
  media_fit?: 'pad' | 'crop';
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
