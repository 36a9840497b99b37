import type { ContentType, Platform } from '@spa/vocabulary';
import { CAPABILITIES } from './capabilities.js';
import { countCharacters, countCodePoints, utf8ByteLength } from './count.js';
import type { MediaFacts, PlatformCapability, PollRules } from './types.js';
import { ruleAccepts } from './uploads.js';

/** What validation needs to know about one post content targeting one platform. */
export interface PostContentInput {
  body: string;
  contentType: ContentType;
  imageCount: number;
  hasVideo: boolean;
  hasDocument: boolean;
  pollOptions?: readonly string[];
}

const COUNTING_NOTE = { weighted: ' (weighted)', graphemes: ' (graphemes)', characters: '' } as const;
const ATTACHMENT_NOUN = { image: 'images', video: 'a video', document: 'a document', poll: 'a poll' } as const;
const MEDIA_NOUN = { image: 'an image', video: 'a video' } as const;

/**
 * Checks `content` against `platform`'s capabilities. Returns one human-readable problem per
 * issue, each naming the platform and starting with the field path `where` (e.g. `post_contents[1]`);
 * an empty array when the content can be published.
 */
export function checkPostContent(platform: Platform, content: PostContentInput, where: string): string[] {
  const caps = CAPABILITIES[platform];
  return [
    ...checkContentKinds(caps, content, where),
    ...checkLength(caps, content, where),
    ...checkMedia(caps, content, where),
    ...(caps.poll && usesPoll(content) ? checkPoll(caps, caps.poll, content, where) : []),
  ];
}

function usesPoll(content: PostContentInput): boolean {
  return content.contentType === 'poll' || content.pollOptions !== undefined;
}

/** The declared content type and every attached kind must be one the platform publishes. */
function checkContentKinds(caps: PlatformCapability, content: PostContentInput, where: string): string[] {
  const problems: string[] = [];
  const supported = (type: ContentType) => caps.content_types.includes(type);
  if (!supported(content.contentType)) {
    problems.push(`${where}.content_type is '${content.contentType}', which ${caps.platform} does not support ` + `(supported: ${caps.content_types.join(', ')})`);
  }
  const attached = {
    image: content.imageCount > 0,
    video: content.hasVideo,
    document: content.hasDocument,
    poll: content.pollOptions !== undefined,
  };
  for (const [kind, present] of Object.entries(attached) as [keyof typeof attached, boolean][]) {
    if (present && !supported(kind) && kind !== content.contentType) {
      problems.push(`${where} includes ${ATTACHMENT_NOUN[kind]}, which ${caps.platform} does not support`);
    }
  }
  return problems;
}

function checkLength(caps: PlatformCapability, content: PostContentInput, where: string): string[] {
  const problems: string[] = [];
  const captionLimit = content.imageCount > 0 || content.hasVideo ? caps.caption_limit : undefined;
  const limit = captionLimit ?? caps.character_limit;
  const length = countCharacters(caps.platform, content.body);
  if (length > limit) {
    const limitName = captionLimit === undefined ? 'the limit' : 'the limit with media attached';
    problems.push(`${where}.body is ${length} characters on ${caps.platform}${COUNTING_NOTE[caps.counting]}; ${limitName} is ${limit}`);
  }
  if (caps.byte_limit !== undefined) {
    const bytes = utf8ByteLength(content.body);
    if (bytes > caps.byte_limit) {
      problems.push(`${where}.body is ${bytes} bytes on ${caps.platform} (UTF-8); the limit is ${caps.byte_limit}`);
    }
  }
  return problems;
}

function checkMedia(caps: PlatformCapability, content: PostContentInput, where: string): string[] {
  const problems: string[] = [];
  if (caps.max_images !== undefined && content.imageCount > caps.max_images) {
    problems.push(`${where} has ${content.imageCount} images on ${caps.platform}; the limit is ${caps.max_images}`);
  }
  if (caps.media_required && content.imageCount === 0 && !content.hasVideo) {
    const accepted = (['image', 'video'] as const).filter((kind) => caps.content_types.includes(kind));
    problems.push(`${where} has no media; ${caps.platform} requires ${accepted.map((kind) => MEDIA_NOUN[kind]).join(' or ')}`);
  }
  return problems;
}

function checkPoll(caps: PlatformCapability, rules: PollRules, content: PostContentInput, where: string): string[] {
  const problems: string[] = [];
  const options = content.pollOptions ?? [];
  if (options.length < rules.min_options || options.length > rules.max_options) {
    problems.push(`${where}.poll_options has ${options.length} option${options.length === 1 ? '' : 's'} on ${caps.platform}; ` + `it needs ${rules.min_options} to ${rules.max_options}`);
  }
  options.forEach((option, i) => {
    const length = countCodePoints(option);
    if (length > rules.option_max_characters) {
      problems.push(`${where}.poll_options[${i}] is ${length} characters on ${caps.platform}; the limit is ${rules.option_max_characters}`);
    }
  });
  if (content.imageCount > 0 || content.hasVideo || content.hasDocument) {
    problems.push(`${where}.poll_options cannot be combined with media on ${caps.platform}`);
  }
  return problems;
}

const fmt = (n: number) => String(Math.round(n * 1000) / 1000);

/**
 * Checks what a media file is (probed from its bytes) against one platform's rule for its kind: the problems
 * that remain, each naming the field path `where` and the platform; empty when the file can be published as
 * it is. The media pipeline converts what it can before this check (type, pixel size, aspect ratio, frame
 * rate, codec); what is left here is what the platform would refuse.
 */
export function checkMediaFacts(platform: Platform, facts: MediaFacts, where: string): string[] {
  const rule = CAPABILITIES[platform].media?.[facts.kind];
  if (!rule) return [`${where} is ${facts.kind === 'image' ? 'an image' : `a ${facts.kind}`}, which ${platform} does not take`];
  const problems: string[] = [];
  const say = (what: string) => problems.push(`${where} ${what} on ${platform}`);
  if (!ruleAccepts(rule, facts.content_type)) say(`is ${facts.content_type}; accepted: ${rule.content_types.join(', ')}`);
  if (facts.bytes > rule.max_bytes) say(`is ${facts.bytes} bytes; the limit is ${rule.max_bytes}`);
  const { width, height } = facts;
  if (width !== undefined && height !== undefined && width > 0 && height > 0) {
    if (rule.min_width !== undefined && width < rule.min_width) say(`is ${width} px wide; the minimum is ${rule.min_width}`);
    if (rule.min_height !== undefined && height < rule.min_height) say(`is ${height} px high; the minimum is ${rule.min_height}`);
    if (rule.max_width !== undefined && width > rule.max_width) say(`is ${width} px wide; the maximum is ${rule.max_width}`);
    if (rule.max_height !== undefined && height > rule.max_height) say(`is ${height} px high; the maximum is ${rule.max_height}`);
    if (rule.max_pixels !== undefined && width * height > rule.max_pixels) say(`is ${width}x${height} pixels; the maximum is ${rule.max_pixels}`);
    const aspect = width / height;
    if (rule.min_aspect_ratio !== undefined && aspect < rule.min_aspect_ratio - 0.005) say(`has aspect ratio ${fmt(aspect)}; the minimum is ${fmt(rule.min_aspect_ratio)}`);
    if (rule.max_aspect_ratio !== undefined && aspect > rule.max_aspect_ratio + 0.005) say(`has aspect ratio ${fmt(aspect)}; the maximum is ${fmt(rule.max_aspect_ratio)}`);
  }
  if (rule.max_frames !== undefined && (facts.frames ?? 1) > rule.max_frames) say(`is an animation of ${facts.frames} frames; at most ${rule.max_frames} accepted`);
  if (facts.kind === 'video') {
    const d = facts.duration_s;
    if (d !== undefined && rule.min_duration_s !== undefined && d < rule.min_duration_s) say(`lasts ${fmt(d)} s; the minimum is ${rule.min_duration_s} s`);
    if (d !== undefined && rule.max_duration_s !== undefined && d > rule.max_duration_s) say(`lasts ${fmt(d)} s; the maximum is ${rule.max_duration_s} s`);
    if (facts.fps !== undefined && rule.max_fps !== undefined && facts.fps > rule.max_fps + 0.01) say(`runs at ${fmt(facts.fps)} fps; the maximum is ${rule.max_fps}`);
    if (facts.fps !== undefined && rule.min_fps !== undefined && facts.fps < rule.min_fps - 0.01) say(`runs at ${fmt(facts.fps)} fps; the minimum is ${rule.min_fps}`);
    if (facts.video_codec && rule.video_codecs && !rule.video_codecs.includes(facts.video_codec)) say(`is encoded with ${facts.video_codec}; accepted: ${rule.video_codecs.join(', ')}`);
    if (facts.audio_codec && rule.audio_codecs && !rule.audio_codecs.includes(facts.audio_codec)) say(`has ${facts.audio_codec} audio; accepted: ${rule.audio_codecs.join(', ')}`);
  }
  return problems;
}
