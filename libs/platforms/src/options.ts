import type { Platform } from '@spa/vocabulary';
import type { PostOptions } from './types.js';

/** The PostOptions fields each platform reads from a post content's `metadata`; any other platform refuses them. */
export const PLATFORM_OPTION_FIELDS: Readonly<Record<Platform, readonly (keyof PostOptions)[]>> = {
  twitter: ['media_fit'],
  linkedin: ['media_fit'],
  youtube: ['title', 'privacy_status'],
  instagram: ['media_fit'],
  threads: ['media_fit'],
  pinterest: ['board_id', 'link', 'title', 'media_fit'],
  tiktok: ['privacy_level', 'disable_comment', 'disable_duet', 'disable_stitch', 'media_fit'],
  bluesky: ['media_fit'],
  mastodon: ['media_fit'],
  facebook: ['media_fit'],
  google_business: ['media_fit'],
  discord: ['media_fit'],
  telegram: ['media_fit'],
  tumblr: ['media_fit'],
  slack: ['media_fit'],
};

export const POST_OPTION_KEYS = [
  'board_id',
  'link',
  'title',
  'privacy_level',
  'disable_comment',
  'disable_duet',
  'disable_stitch',
  'privacy_status',
  'media_fit',
] as const satisfies readonly (keyof PostOptions)[];

/** The PostOptions found in a stored content's metadata (other keys, such as `media`, are left out). */
export function postOptionsOf(metadata: object): PostOptions {
  const options: Record<string, unknown> = {};
  const given = metadata as Readonly<Record<string, unknown>>;
  for (const key of POST_OPTION_KEYS) if (given[key] !== undefined && given[key] !== null) options[key] = given[key];
  return options as PostOptions;
}
