import { ConnectorError, type ContentPart, type MediaItem } from './types.js';

/** The parts of an instance's `configuration` (GET /api/v2/instance) that bound a status. */
export interface InstanceLimits {
  statuses?: { max_characters?: number; max_media_attachments?: number; characters_reserved_per_url?: number };
  media_attachments?: {
    supported_mime_types?: string[];
    image_size_limit?: number;
    image_matrix_limit?: number;
    video_size_limit?: number;
    video_frame_rate_limit?: number;
    video_matrix_limit?: number;
  };
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** A status' length as Mastodon counts it: graphemes, each URL as `characters_reserved_per_url`. */
export function mastodonLength(text: string, perUrl = 23): number {
  return [...graphemes.segment(text.replace(/https?:\/\/\S+/g, 'x'.repeat(perUrl)))].length;
}

/** Mastodon takes 4 images, or one video or GIFV alone. */
export function checkMediaShape(part: ContentPart, max = 4): void {
  if (part.media.length > max) throw new ConnectorError('rejected', `the Mastodon instance takes at most ${max} media per status; this one has ${part.media.length}`);
  const timed = part.media.filter((m) => m.type === 'video' || (m.facts?.frames ?? 1) > 1).length;
  if (timed && part.media.length > 1) throw new ConnectorError('rejected', 'Mastodon cannot attach a video beside other media');
  const other = part.media.find((m) => m.type !== 'image' && m.type !== 'video');
  if (other) throw new ConnectorError('rejected', `Mastodon statuses carry images or a video, not a ${other.type}`);
}

/** The first instance limit `item` breaks (from its probed facts), or undefined. */
function mediaProblem(item: MediaItem, limits: NonNullable<InstanceLimits['media_attachments']>): string | undefined {
  const facts = item.facts;
  if (!facts) return undefined;
  if (limits.supported_mime_types && !limits.supported_mime_types.includes(facts.content_type)) return `the instance does not take ${facts.content_type}`;
  const pixels = facts.width && facts.height ? facts.width * facts.height : undefined;
  const video = facts.kind === 'video';
  const maxBytes = video ? limits.video_size_limit : limits.image_size_limit;
  if (maxBytes !== undefined && facts.bytes > maxBytes) return `${facts.bytes} bytes is over the instance's ${video ? 'video' : 'image'} size limit of ${maxBytes}`;
  const matrix = video ? limits.video_matrix_limit : limits.image_matrix_limit;
  if (matrix !== undefined && pixels !== undefined && pixels > matrix) return `${facts.width}x${facts.height} is over the instance's ${video ? 'video' : 'image'} matrix limit of ${matrix} pixels`;
  if (video && limits.video_frame_rate_limit !== undefined && facts.fps !== undefined && facts.fps > limits.video_frame_rate_limit)
    return `${facts.fps} fps is over the instance's frame rate limit of ${limits.video_frame_rate_limit}`;
  return undefined;
}

/** Every part against the instance's configuration: text length, media count and mix, each media's type, size, pixels and frame rate. */
export function checkAgainstInstance(parts: readonly ContentPart[], limits: InstanceLimits): void {
  const maxChars = limits.statuses?.max_characters;
  for (const part of parts) {
    if (maxChars !== undefined && mastodonLength(part.body, limits.statuses?.characters_reserved_per_url) > maxChars)
      throw new ConnectorError('rejected', `the status is longer than the instance's ${maxChars} characters`);
    checkMediaShape(part, limits.statuses?.max_media_attachments);
    for (const item of part.media) {
      const problem = limits.media_attachments && mediaProblem(item, limits.media_attachments);
      if (problem) throw new ConnectorError('rejected', `Mastodon: ${problem}`);
    }
  }
}
