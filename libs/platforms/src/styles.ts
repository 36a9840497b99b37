import type { Platform } from '@spa/vocabulary';
import { CAPABILITIES } from './capabilities.js';

/** How many emoji a generated post carries. */
export const EMOJI_LEVELS = ['none', 'few', 'many'] as const;
export type EmojiLevel = (typeof EMOJI_LEVELS)[number];

/** How a generated post is broken into lines: one block, short paragraphs, or a line per sentence. */
export const LINE_BREAK_STYLES = ['none', 'paragraphs', 'every_sentence'] as const;
export type LineBreakStyle = (typeof LINE_BREAK_STYLES)[number];

/** Aspect ratios (width:height) generated or chosen images are made for. */
export const IMAGE_ASPECTS = ['1:1', '4:5', '2:3', '3:4', '9:16', '16:9', '1.91:1'] as const;
export type ImageAspect = (typeof IMAGE_ASPECTS)[number];

export const MAX_STYLE_HASHTAGS = 30;
export const MAX_CALL_TO_ACTION_TEXT = 200;

/** The style generation follows on one platform. */
export interface PlatformStyle {
  /** Length to aim for, counted the platform's way; at most the platform's hard limit. */
  lengthTarget: number;
  hashtagCount: number;
  emoji: EmojiLevel;
  lineBreaks: LineBreakStyle;
  /** End with a call to action. */
  callToAction: boolean;
  /** The call to action to use; null lets generation write one. */
  callToActionText: string | null;
  imageAspect: ImageAspect;
}

/** The hard length limit of generated text on a platform: its character limit, or its lower caption limit (so an image always fits). */
export const styleLengthLimit = (platform: Platform): number => Math.min(CAPABILITIES[platform].character_limit, CAPABILITIES[platform].caption_limit ?? Infinity);

/** What reads well where the limit is far above it; elsewhere 90% of the limit. */
const READABLE_LENGTH: Partial<Record<Platform, number>> = {
  linkedin: 1300,
  facebook: 900,
  instagram: 900,
  tiktok: 600,
  youtube: 1000,
  google_business: 700,
  discord: 800,
  telegram: 900,
  tumblr: 900,
  slack: 700,
};

type Habits = Omit<PlatformStyle, 'lengthTarget' | 'callToActionText'>;

/** Each platform's habits: hashtags where discovery runs on them, emoji where the culture uses them, the image shape its feed shows best. */
const HABITS: Record<Platform, Habits> = {
  twitter: { hashtagCount: 1, emoji: 'few', lineBreaks: 'none', callToAction: false, imageAspect: '16:9' },
  linkedin: { hashtagCount: 3, emoji: 'few', lineBreaks: 'every_sentence', callToAction: true, imageAspect: '1:1' },
  youtube: { hashtagCount: 3, emoji: 'none', lineBreaks: 'paragraphs', callToAction: true, imageAspect: '16:9' },
  instagram: { hashtagCount: 8, emoji: 'many', lineBreaks: 'paragraphs', callToAction: true, imageAspect: '4:5' },
  threads: { hashtagCount: 1, emoji: 'few', lineBreaks: 'paragraphs', callToAction: false, imageAspect: '4:5' },
  pinterest: { hashtagCount: 5, emoji: 'none', lineBreaks: 'none', callToAction: true, imageAspect: '2:3' },
  tiktok: { hashtagCount: 4, emoji: 'many', lineBreaks: 'none', callToAction: true, imageAspect: '9:16' },
  bluesky: { hashtagCount: 1, emoji: 'few', lineBreaks: 'none', callToAction: false, imageAspect: '16:9' },
  mastodon: { hashtagCount: 3, emoji: 'few', lineBreaks: 'paragraphs', callToAction: false, imageAspect: '16:9' },
  facebook: { hashtagCount: 1, emoji: 'few', lineBreaks: 'paragraphs', callToAction: true, imageAspect: '1.91:1' },
  google_business: { hashtagCount: 0, emoji: 'none', lineBreaks: 'paragraphs', callToAction: true, imageAspect: '4:5' },
  discord: { hashtagCount: 0, emoji: 'few', lineBreaks: 'paragraphs', callToAction: false, imageAspect: '16:9' },
  telegram: { hashtagCount: 2, emoji: 'few', lineBreaks: 'paragraphs', callToAction: false, imageAspect: '16:9' },
  tumblr: { hashtagCount: 5, emoji: 'few', lineBreaks: 'paragraphs', callToAction: false, imageAspect: '4:5' },
  slack: { hashtagCount: 0, emoji: 'few', lineBreaks: 'paragraphs', callToAction: false, imageAspect: '16:9' },
};

/** The style a workspace that never changed a platform's style gets, from the platform's capabilities and habits. */
export function defaultStyle(platform: Platform): PlatformStyle {
  const limit = styleLengthLimit(platform);
  return { lengthTarget: Math.min(READABLE_LENGTH[platform] ?? Math.floor(limit * 0.9), limit), callToActionText: null, ...HABITS[platform] };
}

const oneOf = (field: string, allowed: readonly string[], value: string): string | null =>
  allowed.includes(value) ? null : `${field}: must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`;

/** Every problem of a (partial) style on a platform, each naming its public (snake_case) field. */
export function styleProblems(platform: Platform, s: Partial<PlatformStyle>): string[] {
  const limit = styleLengthLimit(platform);
  const intIn = (field: string, v: number | undefined, min: number, max: number) =>
    v === undefined || (Number.isInteger(v) && v >= min && v <= max) ? null : `${field}: must be an integer from ${min} to ${max} on ${platform} (got ${v})`;
  const problems = [
    intIn('length_target', s.lengthTarget, 1, limit),
    intIn('hashtag_count', s.hashtagCount, 0, MAX_STYLE_HASHTAGS),
    s.emoji === undefined ? null : oneOf('emoji', EMOJI_LEVELS, s.emoji),
    s.lineBreaks === undefined ? null : oneOf('line_breaks', LINE_BREAK_STYLES, s.lineBreaks),
    s.imageAspect === undefined ? null : oneOf('image_aspect', IMAGE_ASPECTS, s.imageAspect),
    s.callToActionText === undefined || s.callToActionText === null || (s.callToActionText.trim() !== '' && s.callToActionText.length <= MAX_CALL_TO_ACTION_TEXT)
      ? null
      : `call_to_action_text: must be 1 to ${MAX_CALL_TO_ACTION_TEXT} characters, or null (got ${s.callToActionText.length})`,
  ];
  return problems.filter((p): p is string => p !== null);
}
