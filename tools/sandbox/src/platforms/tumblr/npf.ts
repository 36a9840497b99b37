import { inspectMedia, type InspectedMedia } from '../../media/inspect.js';
import { fetchMedia, formFile } from '../../media/receive.js';
import { mediaViolation, type SandboxMediaRule } from '../../media/rules.js';
import type { PlatformRules } from '../../router.js';

const NPF_LIMITS = 'https://github.com/tumblr/docs/blob/master/npf-spec.md#post-content-limits';
const NPF_MEDIA = 'https://github.com/tumblr/docs/blob/master/api.md#posts---createreblog-a-post-neue-post-format';
const PHOTO_SIZE = 'https://itstillworks.com/12762593/tumblr-picture-size-in-posts-and-links';
const VIDEO_SIZE = 'https://classroom.synonym.com/tumblr-video-upload-size-limit-17481.html';

/** Uploaded photos: JPEG, PNG, GIF (and WebP, which Tumblr serves), under 10 MB each. */
export const TUMBLR_IMAGE: SandboxMediaRule = { types: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'], max_bytes: 10 * 1024 * 1024, source: PHOTO_SIZE };
/** Uploaded videos: MP4, at most 100 MB and 5 minutes. */
export const TUMBLR_VIDEO: SandboxMediaRule = { types: ['video/mp4'], max_bytes: 100 * 1024 * 1024, max_duration_s: 300, source: VIDEO_SIZE };

export const NPF = { maxBlocks: 1000, maxTextBlock: 4096, maxImageBlocks: 30, maxVideoBlocks: 10, maxNativeVideos: 1 } as const;

export const TUMBLR_RULES: PlatformRules = {
  media: { image: TUMBLR_IMAGE, video: TUMBLR_VIDEO },
  other: [
    { rule: 'a post has at most 1000 content blocks; a text block at most 4096 code points', source: NPF_LIMITS },
    { rule: 'at most 30 image blocks and 10 video blocks per post, of which 1 uploaded (native) video', source: NPF_LIMITS },
    { rule: 'uploaded media: multipart/form-data with the NPF JSON in the `json` part; each media object names its file part by `identifier`', source: NPF_MEDIA },
    { rule: 'an image or video by `url` is fetched by Tumblr; one it cannot fetch or read is refused', source: NPF_MEDIA },
  ],
};

interface MediaRef {
  url?: unknown;
  identifier?: unknown;
  type?: unknown;
}
export interface Block {
  type?: unknown;
  text?: unknown;
  media?: MediaRef[] | MediaRef;
}

/** A problem with the post, as Tumblr's 400 `detail`. */
export class NpfProblem extends Error {}

const codePoints = (text: string) => [...text].length;

/** The NPF content's shape and counts, before any media is read. */
export function contentProblem(content: Block[]): string | undefined {
  if (content.length > NPF.maxBlocks) return `Posts can have at most ${NPF.maxBlocks} content blocks.`;
  for (const block of content) {
    if (block.type === 'text') {
      if (typeof block.text !== 'string') return 'Text blocks need a text.';
      if (codePoints(block.text) > NPF.maxTextBlock) return `Text blocks can be at most ${NPF.maxTextBlock} characters.`;
    } else if (block.type === 'image') {
      if (!Array.isArray(block.media) || !block.media.length || !block.media.every((m) => typeof m.url === 'string' || typeof m.identifier === 'string'))
        return 'Image blocks need media with a url or an identifier.';
    } else if (block.type === 'video') {
      const media = block.media as MediaRef | undefined;
      if (!media || Array.isArray(media) || (typeof media.url !== 'string' && typeof media.identifier !== 'string')) return 'Video blocks need a media object with a url or an identifier.';
    } else return `Unsupported block type ${String(block.type)}.`;
  }
  const count = (type: string) => content.filter((b) => b.type === type).length;
  if (count('image') > NPF.maxImageBlocks) return `Posts can have at most ${NPF.maxImageBlocks} image blocks.`;
  if (count('video') > NPF.maxVideoBlocks) return `Posts can have at most ${NPF.maxVideoBlocks} video blocks.`;
  const native = content.filter((b) => b.type === 'video' && typeof (b.media as MediaRef).identifier === 'string').length;
  if (native > NPF.maxNativeVideos) return `Posts can have at most ${NPF.maxNativeVideos} uploaded video.`;
  return undefined;
}

async function read(ref: MediaRef, form: FormData | undefined): Promise<InspectedMedia> {
  if (typeof ref.identifier === 'string') {
    const bytes = await formFile(form, ref.identifier);
    if (!bytes) throw new NpfProblem(`No file was uploaded for the media identifier ${ref.identifier}.`);
    return inspectMedia(bytes);
  }
  const fetched = await fetchMedia(String(ref.url));
  if ('error' in fetched) throw new NpfProblem(`The media at ${String(ref.url)} could not be fetched: ${fetched.error}.`);
  return fetched.media;
}

/** Every media item of the post, in block order, read from its bytes and checked against Tumblr's rules. */
export async function readMedia(content: Block[], form: FormData | undefined): Promise<InspectedMedia[]> {
  const out: InspectedMedia[] = [];
  for (const block of content) {
    if (block.type !== 'image' && block.type !== 'video') continue;
    const refs = block.type === 'image' ? (block.media as MediaRef[]) : [block.media as MediaRef];
    // An image block's media lists one image in several sizes: the first is the one uploaded or fetched.
    const media = await read(refs[0]!, form);
    const rule = block.type === 'image' ? TUMBLR_IMAGE : TUMBLR_VIDEO;
    const problem = mediaViolation(media, rule);
    if (problem) throw new NpfProblem(`The ${block.type} could not be used: ${problem}.`);
    out.push(media);
  }
  return out;
}
