import type { ContentType, Platform } from '@spa/vocabulary';
import { CAPABILITIES } from './capabilities.js';
import { countCharacters, countCodePoints, utf8ByteLength } from './count.js';
import type { PlatformCapability, PollRules } from './types.js';

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
