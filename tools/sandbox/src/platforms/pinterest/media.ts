import { randomBytes } from 'node:crypto';
import { inspectMedia, type InspectedMedia } from '../../media/inspect.js';
import { fetchMedia, formFile, readForm } from '../../media/receive.js';
import { mediaViolation } from '../../media/rules.js';
import type { Route, SandboxResponse } from '../../router.js';
import type { SandboxState } from '../../state.js';
import { PINTEREST_IMAGE, PINTEREST_LIMITS, PINTEREST_VIDEO, pinterestError } from './rules.js';

/**
 * Pinterest's media registration for video pins: POST /v5/media {media_type: video} registers an upload and
 * answers an `upload_url` with `upload_parameters` (a presigned form, as Pinterest's S3 bucket takes it);
 * the file is POSTed there as multipart with every parameter; GET /v5/media/{id} answers `registered`, then
 * `processing` once, then `succeeded` (or `failed` when the file breaks Pinterest's video rules).
 */
const PLATFORM = 'pinterest';
const uploadKey = (id: string) => `pinterest:${id}`;

export interface MediaSource {
  source_type?: string;
  url?: string;
  data?: string;
  content_type?: string;
  items?: Array<{ url?: string }>;
  media_id?: string;
  cover_image_url?: string;
  cover_image_key_frame_time?: number;
}

/** The media a pin's `media_source` names, read as Pinterest would (fetched, decoded, checked); a Pinterest error otherwise. */
export async function pinMedia(state: SandboxState, account: string, source: MediaSource | undefined): Promise<InspectedMedia[] | SandboxResponse> {
  const invalid = (message: string) => pinterestError(400, 1, `Invalid parameters: ${message}`);
  const image = async (url: string | undefined): Promise<InspectedMedia | SandboxResponse> => {
    if (!url) return invalid('media_source url is required.');
    const fetched = await fetchMedia(url);
    if ('error' in fetched) return invalid(`Sorry, we could not fetch the image (${fetched.error}).`);
    const problem = mediaViolation(fetched.media, PINTEREST_IMAGE);
    return problem ? invalid(`image: ${problem}.`) : fetched.media;
  };
  switch (source?.source_type) {
    case 'image_url': {
      const one = await image(source.url);
      return 'status' in one ? one : [one];
    }
    case 'image_base64': {
      if (!source.data || !source.content_type) return invalid('image_base64 needs content_type and data.');
      const media = await inspectMedia(Buffer.from(source.data, 'base64'));
      const problem = mediaViolation(media, PINTEREST_IMAGE);
      return problem ? invalid(`image: ${problem}.`) : [media];
    }
    case 'multiple_image_urls': {
      const items = source.items ?? [];
      if (items.length < PINTEREST_LIMITS.carouselMin || items.length > PINTEREST_LIMITS.carouselMax) return invalid(`multiple_image_urls takes 2 to 5 items, got ${items.length}.`);
      const media: InspectedMedia[] = [];
      for (const item of items) {
        const one = await image(item.url);
        if ('status' in one) return one;
        media.push(one);
      }
      return media;
    }
    case 'video_id': {
      const upload = state.media.get(uploadKey(source.media_id ?? ''));
      if (!upload || upload.account !== account) return pinterestError(404, 3, `Media not found: ${source.media_id ?? ''}.`);
      if (upload.status !== 'succeeded' || !upload.facts) return invalid(`media ${source.media_id} is ${upload.status ?? 'registered'}, not succeeded.`);
      if (!source.cover_image_url && source.cover_image_key_frame_time === undefined) return invalid('a video pin needs cover_image_url or cover_image_key_frame_time.');
      if (source.cover_image_url) {
        const cover = await image(source.cover_image_url);
        if ('status' in cover) return cover;
      }
      state.media.delete(uploadKey(source.media_id!));
      return [upload.facts];
    }
    default:
      return invalid('media_source.source_type must be image_url, image_base64, multiple_image_urls or video_id.');
  }
}

const UPLOAD_PARAMETERS = ['key', 'policy', 'x-amz-algorithm', 'x-amz-credential', 'x-amz-date', 'x-amz-signature', 'Content-Type'];

export function mediaRoutes(): Route[] {
  return [
    {
      method: 'POST',
      path: '/v5/media',
      handle: (req, state) => {
        const body = (req.body ?? {}) as { media_type?: string };
        if (body.media_type !== 'video') return pinterestError(400, 1, 'Invalid parameters: media_type must be video.');
        const media_id = String(Date.now()) + String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
        const secret = randomBytes(8).toString('hex');
        const upload_parameters = Object.fromEntries(UPLOAD_PARAMETERS.map((p) => [p, p === 'key' ? `uploads/${media_id}` : p === 'Content-Type' ? 'multipart/form-data' : `${p}-${secret}`]));
        state.media.set(uploadKey(media_id), { platform: PLATFORM, bytes: 0, contentType: 'video', account: req.account, status: 'registered', extra: { upload_parameters } });
        return { status: 201, body: { media_id, media_type: 'video', upload_url: `http://${req.headers.host}/pinterest/media-uploads/${media_id}`, upload_parameters } };
      },
    },
    {
      method: 'POST',
      path: '/media-uploads/:id',
      auth: false,
      handle: async (req, state) => {
        const upload = state.media.get(uploadKey(req.params.id!));
        // The bucket's own (XML) answers, as S3 gives them.
        if (!upload || upload.status !== 'registered') return { status: 403, body: '<Error><Code>AccessDenied</Code><Message>Invalid according to Policy</Message></Error>' };
        const form = await readForm(req);
        const expected = (upload.extra?.upload_parameters ?? {}) as Record<string, string>;
        const missing = Object.entries(expected).find(([name, value]) => form?.get(name) !== value);
        if (missing) return { status: 403, body: `<Error><Code>AccessDenied</Code><Message>Invalid according to Policy: ${missing[0]}</Message></Error>` };
        const bytes = await formFile(form, 'file');
        if (!bytes) return { status: 400, body: '<Error><Code>InvalidArgument</Code><Message>POST requires exactly one file upload per request.</Message></Error>' };
        upload.bytes = bytes.length;
        upload.facts = await inspectMedia(bytes);
        upload.status = 'uploaded';
        return { status: 204 };
      },
    },
    {
      method: 'GET',
      path: '/v5/media/:id',
      handle: (req, state) => {
        const upload = state.media.get(uploadKey(req.params.id!));
        if (!upload || upload.account !== req.account) return pinterestError(404, 3, 'Media not found.');
        if (upload.status === 'uploaded') {
          // One read sees it processing; the next sees the verdict.
          upload.status = 'processing';
        } else if (upload.status === 'processing') {
          const problem = upload.facts ? mediaViolation(upload.facts, PINTEREST_VIDEO) : 'no file';
          upload.status = problem ? 'failed' : 'succeeded';
          if (problem) upload.extra = { ...upload.extra, failure: problem };
        }
        return { status: 200, body: { media_id: req.params.id, media_type: 'video', status: upload.status } };
      },
    },
  ];
}
