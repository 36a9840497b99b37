import { inspectMedia, type InspectedMedia } from '../../media/inspect.js';
import { fetchMedia, formFile, readForm } from '../../media/receive.js';
import { mediaViolation, type SandboxMediaRule } from '../../media/rules.js';
import type { PlatformRules, SandboxRequest } from '../../router.js';

const SEND_PHOTO = 'https://core.telegram.org/bots/api#sendphoto';
const SEND_VIDEO = 'https://core.telegram.org/bots/api#sendvideo';
const SENDING_FILES = 'https://core.telegram.org/bots/api#sending-files';
const SEND_MEDIA_GROUP = 'https://core.telegram.org/bots/api#sendmediagroup';

const MB = 1024 * 1024;
/** sendPhoto: at most 10 MB uploaded (5 MB by URL), width + height at most 10000, aspect ratio at most 20. */
export const TELEGRAM_PHOTO: SandboxMediaRule = {
  types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
  max_bytes: 10 * MB,
  min_aspect: 1 / 20,
  max_aspect: 20,
  source: SEND_PHOTO,
};
/** sendVideo: MPEG4 (other formats are sent as documents), at most 50 MB uploaded (20 MB by URL). */
export const TELEGRAM_VIDEO: SandboxMediaRule = { types: ['video/mp4'], max_bytes: 50 * MB, source: SEND_VIDEO };
const BY_URL = { photo: 5 * MB, video: 20 * MB } as const;
const MAX_SIDES = 10_000;

export const TELEGRAM_RULES: PlatformRules = {
  media: { image: TELEGRAM_PHOTO, video: TELEGRAM_VIDEO },
  other: [
    { rule: "a photo's width + height at most 10000 and aspect ratio at most 20 (PHOTO_INVALID_DIMENSIONS)", source: SEND_PHOTO },
    { rule: 'files by URL: photos at most 5 MB, other files at most 20 MB; uploaded (multipart): 10 MB photos, 50 MB other files', source: SENDING_FILES },
    { rule: 'sendMediaGroup takes 2–10 photos and videos; a file in it is named `attach://<part>` and uploaded in the same request', source: SEND_MEDIA_GROUP },
    { rule: 'a caption at most 1024 characters, a message at most 4096 (after entity parsing)', source: 'https://core.telegram.org/bots/api#sendmessage' },
  ],
};

export type Body = Record<string, unknown>;

/** The request's parameters: JSON or urlencoded, or a multipart form (fields as strings, JSON-valued fields decoded). */
export async function readParams(req: SandboxRequest): Promise<{ body: Body; form?: FormData }> {
  const form = await readForm(req);
  if (!form) return { body: (req.body ?? {}) as Body };
  const body: Body = {};
  for (const [key, value] of form.entries()) {
    if (typeof value !== 'string') continue;
    body[key] = ['media', 'reply_parameters'].includes(key) ? JSON.parse(value) : value;
  }
  return { body, form };
}

/**
 * The file a photo or video parameter names, read as Telegram reads it: an upload in this request (the
 * parameter itself, or `attach://<name>`) or an HTTP URL Telegram downloads; checked against the rules.
 * Answers Telegram's error description when it breaks one.
 */
export async function resolveFile(kind: 'photo' | 'video', value: unknown, form: FormData | undefined, field: string): Promise<{ media: InspectedMedia } | { error: string }> {
  let media: InspectedMedia;
  const uploaded = typeof value === 'string' && value.startsWith('attach://') ? await formFile(form, value.slice('attach://'.length)) : await formFile(form, field);
  if (uploaded) media = await inspectMedia(uploaded);
  else if (typeof value === 'string' && /^https?:\/\//.test(value)) {
    const fetched = await fetchMedia(value);
    if ('error' in fetched) return { error: 'failed to get HTTP URL content' };
    if (fetched.media.bytes > BY_URL[kind]) return { error: 'failed to get HTTP URL content' };
    media = fetched.media;
  } else return { error: `there is no ${kind} in the request` };
  const rule = kind === 'photo' ? TELEGRAM_PHOTO : TELEGRAM_VIDEO;
  if (media.bytes > rule.max_bytes) return { error: 'file is too big' };
  if (!rule.types.includes(media.content_type)) return { error: kind === 'photo' ? 'IMAGE_PROCESS_FAILED' : 'wrong type of the web page content' };
  if (kind === 'photo' && media.kind === 'image' && (media.width ?? 0) + (media.height ?? 0) > MAX_SIDES) return { error: 'PHOTO_INVALID_DIMENSIONS' };
  const problem = mediaViolation(media, rule);
  if (problem) return { error: kind === 'photo' ? 'PHOTO_INVALID_DIMENSIONS' : 'VIDEO_FILE_INVALID' };
  return { media };
}
