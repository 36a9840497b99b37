import type { InspectedMedia } from '../../media/inspect.js';
import type { SandboxMediaRule } from '../../media/rules.js';
import type { PlatformRules } from '../../router.js';
import { graphemeLength } from '../text.js';

const INSTANCE_API = 'https://docs.joinmastodon.org/entities/Instance/#configuration';
const MEDIA_API = 'https://docs.joinmastodon.org/methods/media/#v2';
const STATUSES_API = 'https://docs.joinmastodon.org/methods/statuses/#create';
const LENGTH_VALIDATOR = 'https://github.com/mastodon/mastodon/blob/main/app/validators/status_length_validator.rb';
const LIMITS_SEEN = 'https://github.com/mastodon/mastodon/discussions/26709';

/**
 * The sandbox instance's `configuration` as `GET /api/v2/instance` reports it: mastodon.social's values
 * (Mastodon 4.x defaults). Every limit the stand-in enforces is read from here, as a client must.
 */
export const INSTANCE_CONFIGURATION = {
  urls: { streaming: 'wss://sandbox.invalid' },
  accounts: { max_featured_tags: 10, max_pinned_statuses: 5 },
  statuses: { max_characters: 500, max_media_attachments: 4, characters_reserved_per_url: 23 },
  media_attachments: {
    supported_mime_types: [
      'image/jpeg',
      'image/png',
      'image/gif',
      'image/heic',
      'image/heif',
      'image/webp',
      'image/avif',
      'video/webm',
      'video/mp4',
      'video/quicktime',
      'video/ogg',
      'audio/wave',
      'audio/wav',
      'audio/x-wav',
      'audio/ogg',
      'audio/mpeg',
      'audio/mp3',
      'audio/mp4',
      'audio/aac',
      'audio/flac',
    ],
    description_limit: 1500,
    image_size_limit: 16_777_216,
    image_matrix_limit: 33_177_600,
    video_size_limit: 103_809_024,
    video_frame_rate_limit: 120,
    video_matrix_limit: 8_294_400,
  },
  polls: { max_options: 4, max_characters_per_option: 50, min_expiration: 300, max_expiration: 2_629_746 },
  translation: { enabled: false },
} as const;

const media = INSTANCE_CONFIGURATION.media_attachments;
const images = media.supported_mime_types.filter((t) => t.startsWith('image/'));
const videos = media.supported_mime_types.filter((t) => t.startsWith('video/'));

export const MASTODON_IMAGE: SandboxMediaRule = { types: images, max_bytes: media.image_size_limit, max_pixels: media.image_matrix_limit, source: INSTANCE_API };
export const MASTODON_VIDEO: SandboxMediaRule = { types: videos, max_bytes: media.video_size_limit, max_pixels: media.video_matrix_limit, max_fps: media.video_frame_rate_limit, source: INSTANCE_API };

export const MASTODON_RULES: PlatformRules = {
  media: { image: MASTODON_IMAGE, video: MASTODON_VIDEO },
  other: [
    { rule: 'every limit is the instance configuration of GET /api/v2/instance (mastodon.social values: images 16 MiB, video 99 MiB)', source: LIMITS_SEEN },
    {
      rule: 'upload: a type outside supported_mime_types, a file over its size limit, more pixels than the matrix limit or a frame rate over the limit is refused with 422 {error}',
      source: MEDIA_API,
    },
    { rule: 'a video is processed after upload (202, GET /api/v1/media/:id answers 206 until done); a status cannot attach media still processing (422)', source: MEDIA_API },
    {
      rule: `status text at most max_characters (${INSTANCE_CONFIGURATION.statuses.max_characters}) graphemes, each URL counting ${INSTANCE_CONFIGURATION.statuses.characters_reserved_per_url}`,
      source: LENGTH_VALIDATOR,
    },
    {
      rule: `at most max_media_attachments (${INSTANCE_CONFIGURATION.statuses.max_media_attachments}) per status; a video or GIFV cannot be attached beside images; not with a poll`,
      source: STATUSES_API,
    },
    { rule: 'poll: 2 to max_options options of at most max_characters_per_option, expiry within min/max_expiration', source: STATUSES_API },
  ],
};

/** A status' length as Mastodon counts it: graphemes, each URL as `characters_reserved_per_url`. */
export function statusLength(text: string): number {
  const reserved = INSTANCE_CONFIGURATION.statuses.characters_reserved_per_url;
  return graphemeLength(text.replace(/https?:\/\/\S+/g, 'x'.repeat(reserved)));
}

/** Mastodon's own wording for an uploaded file it refuses (422 `{error}`), or undefined when it takes it. */
export function uploadProblem(file: InspectedMedia): string | undefined {
  if (!(media.supported_mime_types as readonly string[]).includes(file.content_type)) return 'Validation failed: File content type is invalid, File is invalid';
  if (file.kind === 'image') {
    if (file.bytes > media.image_size_limit) return `Validation failed: File file size must be less than ${media.image_size_limit / 1024 / 1024} MB`;
    if (file.width && file.height && file.width * file.height > media.image_matrix_limit) return `${file.width}x${file.height} images are not supported`;
  }
  if (file.kind === 'video') {
    if (file.bytes > media.video_size_limit) return `Validation failed: File file size must be less than ${Math.floor(media.video_size_limit / 1024 / 1024)} MB`;
    if (file.width && file.height && file.width * file.height > media.video_matrix_limit) return `${file.width}x${file.height} videos are not supported`;
    if (file.fps !== undefined && file.fps > media.video_frame_rate_limit) return `${Math.floor(file.fps)}fps videos are not supported`;
  }
  return undefined;
}
