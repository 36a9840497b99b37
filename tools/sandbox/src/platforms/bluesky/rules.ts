import type { SandboxMediaRule } from '../../media/rules.js';
import type { PlatformRules, SandboxResponse } from '../../router.js';

const IMAGES_LEXICON = 'https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/embed/images.json';
const VIDEO_LEXICON = 'https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/embed/video.json';
const POST_LEXICON = 'https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/post.json';
const VIDEO_BLOG = 'https://bsky.social/about/blog/09-11-2024-video';
const VIDEO_LIMITS = 'https://bsky.app/profile/bsky.app/post/3lk26lxn6sk2u';
const VIDEO_DOCS = 'https://docs.bsky.app/docs/tutorials/video';

/** Images in `app.bsky.embed.images`: any image type, at most 2,000,000 bytes a blob (lexicon `maxSize`). */
export const BLUESKY_IMAGE: SandboxMediaRule = { types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/heic'], max_bytes: 2_000_000, source: IMAGES_LEXICON };
/** Videos through the video service: MP4, at most 100 MB and 3 minutes (the embed's lexicon allows 300 MB; the service takes 100). */
export const BLUESKY_VIDEO: SandboxMediaRule = { types: ['video/mp4'], max_bytes: 100_000_000, max_duration_s: 180, source: VIDEO_LIMITS };

export const TEXT_GRAPHEMES = 300;
export const TEXT_BYTES = 3000;
export const MAX_IMAGES = 4;

export const BLUESKY_RULES: PlatformRules = {
  media: { image: BLUESKY_IMAGE, video: BLUESKY_VIDEO },
  other: [
    { rule: `post text at most ${TEXT_GRAPHEMES} graphemes and ${TEXT_BYTES} UTF-8 bytes; facets index UTF-8 byte ranges inside the text`, source: POST_LEXICON },
    { rule: `app.bsky.embed.images: 1–${MAX_IMAGES} images, each an uploaded image blob with alt text; aspectRatio {width, height} positive integers`, source: IMAGES_LEXICON },
    { rule: 'app.bsky.embed.video: one video/mp4 blob made by the video service (one video per post, no images beside it); aspectRatio positive integers', source: VIDEO_LEXICON },
    {
      rule: 'video upload: a service token from com.atproto.server.getServiceAuth (aud did:web:<the PDS host>, lxm com.atproto.repo.uploadBlob) → app.bsky.video.uploadVideo?did&name → app.bsky.video.getJobStatus until JOB_STATE_COMPLETED (blob) or JOB_STATE_FAILED (error, message)',
      source: VIDEO_DOCS,
    },
    {
      rule: 'com.atproto.repo.uploadBlob takes at most 5 MiB (the PDS default blobUploadLimit): BlobTooLarge',
      source: 'https://github.com/bluesky-social/atproto/blob/main/packages/pds/src/config/config.ts',
    },
    { rule: 'video: each post one video of up to 3 minutes and 100 MB', source: VIDEO_BLOG },
  ],
};

export const xrpcError = (status: number, error: string, message: string): SandboxResponse => ({ status, body: { error, message } });
export const invalid = (message: string) => xrpcError(400, 'InvalidRequest', message);
export const did = (account: string) => `did:plc:${account}`;
