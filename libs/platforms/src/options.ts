import type { Platform } from '@spa/vocabulary';
import { CAPABILITIES } from './capabilities.js';
import { countCharacters } from './count.js';
import { isHttpUrl, MAX_LINK_LENGTH } from './links.js';
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

export type PostOptionKey = (typeof POST_OPTION_KEYS)[number];

/** The privacy levels TikTok's Content Posting API knows (a creator's `privacy_level_options` are among them). */
export const TIKTOK_PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;
/** YouTube's `status.privacyStatus` values. */
export const YOUTUBE_PRIVACY_STATUSES = ['public', 'unlisted', 'private'] as const satisfies readonly NonNullable<PostOptions['privacy_status']>[];
/** How the media pipeline fits an image outside a platform's aspect-ratio range: pad (the default) or crop. */
export const MEDIA_FITS = ['pad', 'crop'] as const satisfies readonly NonNullable<PostOptions['media_fit']>[];
/** Pinterest board ids are decimal digit strings (e.g. "549755885175"); longer than this is not an id. */
export const MAX_BOARD_ID_LENGTH = 64;
export const BOARD_ID_PATTERN = /^\d+$/;

/** The options a platform cannot publish without (TikTok's own rules forbid a default privacy level). */
export const REQUIRED_POST_OPTIONS: Readonly<Partial<Record<Platform, readonly PostOptionKey[]>>> = { tiktok: ['privacy_level'] };

/**
 * `required: false` checks only the options given: for defaults that fill a post's options later (a content plan's
 * platform_configs), not for a post itself.
 */
export interface OptionCheck {
  required?: boolean;
}

/** One problem with one option: the field it names and what is wrong, without the field path. */
export interface OptionProblem {
  field: PostOptionKey;
  message: string;
}

const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
const oneOf = (values: readonly string[]) => (v: unknown) => typeof v === 'string' && values.includes(v);

/** Why `value` is not a valid `field` on `platform`, or undefined when it is. */
function valueProblem(platform: Platform, field: PostOptionKey, value: unknown): string | undefined {
  switch (field) {
    case 'board_id':
      if (typeof value !== 'string' || !BOARD_ID_PATTERN.test(value) || value.length > MAX_BOARD_ID_LENGTH) {
        return `must be a Pinterest board id: 1 to ${MAX_BOARD_ID_LENGTH} digits (GET /pinterest/boards lists an account's boards)`;
      }
      return undefined;
    case 'link':
      return isHttpUrl(value) ? undefined : `must be an http(s) URL of at most ${MAX_LINK_LENGTH} characters`;
    case 'title': {
      const limit = CAPABILITIES[platform].title_limit;
      if (typeof value !== 'string' || !value.trim()) return 'must be a non-empty string';
      const length = countCharacters(platform, value);
      if (limit !== undefined && length > limit) return `is ${length} characters on ${platform}; the limit is ${limit}`;
      // YouTube refuses a title with angle brackets (invalidTitle).
      return platform === 'youtube' && /[<>]/.test(value) ? 'cannot contain < or > on youtube' : undefined;
    }
    case 'privacy_level':
      return oneOf(TIKTOK_PRIVACY_LEVELS)(value) ? undefined : `must be one of ${TIKTOK_PRIVACY_LEVELS.join(', ')} (a privacy level the creator's account offers)`;
    case 'disable_comment':
    case 'disable_duet':
    case 'disable_stitch':
      return isBoolean(value) ? undefined : 'must be true or false';
    case 'privacy_status':
      return oneOf(YOUTUBE_PRIVACY_STATUSES)(value) ? undefined : `must be one of ${YOUTUBE_PRIVACY_STATUSES.join(', ')}`;
    case 'media_fit':
      return oneOf(MEDIA_FITS)(value) ? undefined : `must be one of ${MEDIA_FITS.join(', ')}`;
  }
}

const readers = (field: PostOptionKey): Platform[] => (Object.keys(PLATFORM_OPTION_FIELDS) as Platform[]).filter((p) => PLATFORM_OPTION_FIELDS[p].includes(field));

/**
 * The problems of the per-platform options in a content's `metadata` for `platform`, one per field: an option
 * another platform reads is refused naming who reads it, a value is checked against the platform's rule, and a
 * required option (TikTok's privacy_level) must be there. Keys that are not options (media, poll, …) are left alone.
 */
export function postOptionProblems(platform: Platform, metadata: Readonly<Record<string, unknown>> | undefined, opts: OptionCheck = {}): OptionProblem[] {
  const given = metadata ?? {};
  const reads = PLATFORM_OPTION_FIELDS[platform];
  const problems: OptionProblem[] = [];
  for (const field of POST_OPTION_KEYS) {
    const value = given[field];
    if (value === undefined || value === null) {
      if (opts.required !== false && REQUIRED_POST_OPTIONS[platform]?.includes(field)) {
        problems.push({ field, message: `is required on ${platform}: TikTok's own rules forbid a default (one of ${TIKTOK_PRIVACY_LEVELS.join(', ')})` });
      }
      continue;
    }
    if (!reads.includes(field)) {
      const who = readers(field);
      const message = who.length <= 2 ? `only ${who.join(' and ')} ${who.length === 1 ? 'reads' : 'read'} ${field}; ${platform} does not` : `${platform} does not read ${field}`;
      problems.push({ field, message });
      continue;
    }
    const wrong = valueProblem(platform, field, value);
    if (wrong) problems.push({ field, message: wrong });
  }
  return problems;
}

/**
 * Checks the per-platform options of one post content (see postOptionProblems): one message per problem, each
 * starting with `where`, the path of the metadata object (e.g. `post_contents[0].metadata`), then the field.
 */
export function checkPostOptions(platform: Platform, metadata: Readonly<Record<string, unknown>> | undefined, where: string, opts: OptionCheck = {}): string[] {
  return postOptionProblems(platform, metadata, opts).map((p) => `${where}.${p.field}: ${p.message}`);
}

/** The PostOptions found in a stored content's metadata (other keys, such as `media`, are left out). */
export function postOptionsOf(metadata: object): PostOptions {
  const options: Record<string, unknown> = {};
  const given = metadata as Readonly<Record<string, unknown>>;
  for (const key of POST_OPTION_KEYS) if (given[key] !== undefined && given[key] !== null) options[key] = given[key];
  return options as PostOptions;
}
