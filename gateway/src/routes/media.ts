import type { UploadMediaRequest, UploadMediaResponse } from '@spa/contracts/media/v1/media';
import { maxUploadBytes, UPLOAD_PLATFORMS, uploadRules, type UploadPlatform } from '@spa/platforms';
import { z } from 'zod';
import { AppError, invalidParameters } from '@spa/errors';
import { UrlRefusedError } from '@spa/url-guard';
import { bodyLimitFor, openCallSink, streamedUpload, type UploadSpec } from '../http/media-upload.js';
import { route, type Route } from './route.js';
import { queryInt } from './schemas.js';

const mime = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z]+\/[\w.+-]+$/, 'must be a MIME type such as image/png')
  .describe('MIME type of the file; it must match the type found in the bytes (image/jpg is read as image/jpeg)');

const media = z
  .string()
  .describe(
    'The file as standard base64 (RFC 4648 alphabet, padding optional at the end; no whitespace, no `data:` prefix). ' +
      'The body is parsed as it arrives and its size checked before it is all decoded.',
  );

const UploadResultSchema = z
  .object({
    url: z.string().describe('Public address of the stored file (fetchable by platforms that pull media from a URL)'),
    r2_key: z.string().describe('Storage key `ws/<workspace_id>/<yyyy>/<mm>/<uuid>.<ext>`; reference it from a post content as `metadata.media: [{r2_key, type}]`'),
    content_type: z.string().describe('The type found in the bytes'),
    size_bytes: z.number().int(),
    width: z.number().int().nullable().describe('Image width in pixels (null for video)'),
    height: z.number().int().nullable().describe('Image height in pixels (null for video)'),
  })
  .meta({ id: 'MediaUploadResult' });

const BLANK: UploadMediaRequest = { workspaceId: 0, requireConnectedAccount: false, chunk: Buffer.alloc(0), imagesOnly: false, complete: false };

const uploadResult = ({ media }: UploadMediaResponse) => ({
  url: media!.url,
  r2_key: media!.r2Key,
  content_type: media!.contentType,
  size_bytes: media!.sizeBytes,
  width: media!.width || null,
  height: media!.height || null,
});

/** A streamed upload into the media service's UploadMedia (for `platform`, or the body's `platform` when undefined). */
function mediaUpload(fields: z.ZodObject, opts: { platform?: UploadPlatform; requireConnectedAccount: boolean; imagesOnly: boolean }): UploadSpec {
  return {
    fields,
    maxBytes: Math.max(...(opts.platform ? [opts.platform] : UPLOAD_PLATFORMS).map(maxUploadBytes)),
    open: ({ clients, principal }) =>
      openCallSink(
        clients.media.clientStream('uploadMedia'),
        {
          blank: BLANK,
          first: {
            workspaceId: principal.workspaceId,
            requireConnectedAccount: opts.requireConnectedAccount,
            imagesOnly: opts.imagesOnly,
            ...(opts.platform ? { platform: opts.platform } : {}),
          },
          field: (key, value) => (key === 'platform' ? { platform: String(value) } : { contentType: String(value) }),
        },
        uploadResult,
      ),
  };
}

const fmt = (bytes: number) => (bytes >= 1e9 ? `${bytes / 1e9} GB` : bytes >= 1e6 ? `${+(bytes / 1e6).toFixed(2)} MB` : `${bytes} B`);

function limitsText(platform: UploadPlatform): string {
  return Object.entries(uploadRules(platform))
    .map(([kind, rule]) => `${kind}: ${rule.content_types.join(', ')} up to ${fmt(rule.max_bytes)}`)
    .join('; ');
}

const COMMON =
  'The real type is read from the bytes (SVG, HTML and other text are refused whatever is declared); images are checked for ' +
  'dimensions without decoding (a header declaring more than 100 million pixels is refused). Size over the limit: 413 ' +
  'PAYLOAD_TOO_LARGE (from Content-Length before reading, otherwise as soon as the decoded size passes it); a bad field, ' +
  'invalid base64 or a type mismatch: 422 INVALID_PARAMETERS. Nothing is stored unless every check passes. ' +
  'Idempotency-Key is not applied to uploads (the body is never held whole); a retried upload stores a new file.';

function uploadRoute(platform: UploadPlatform, opts: { connected?: boolean; imagesOnly?: boolean; contentTypes?: readonly [string, ...string[]] }): Route {
  const fields = z.object({ content_type: opts.contentTypes ? z.enum(opts.contentTypes) : mime }).strict();
  const spec = mediaUpload(fields, { platform, requireConnectedAccount: opts.connected ?? false, imagesOnly: opts.imagesOnly ?? false });
  const r = route({
    method: 'post',
    path: `/${platform}/media_uploads`,
    tag: 'Media',
    summary: `Upload ${opts.imagesOnly ? 'an image' : 'an image or video'} for ${platform}`,
    description: [
      `Limits (GET /platforms): ${limitsText(platform)}${opts.contentTypes ? `; this route takes ${opts.contentTypes.join(' or ')} only` : ''}.`,
      opts.connected ? `Needs a connected ${platform} account in the workspace (otherwise 422 INVALID_PARAMETERS naming \`platform\`).` : '',
      COMMON,
    ].join(' '),
    audience: 'api_key',
    scope: 'publish:write',
    plan: 'paid',
    body: fields.extend({ media }),
    bodyLimit: String(bodyLimitFor(spec.maxBytes)),
    status: 201,
    response: UploadResultSchema,
  });
  return streamedUpload(r, spec);
}

const genericFields = z.object({ platform: z.enum(UPLOAD_PLATFORMS), content_type: mime }).strict();
const genericUpload = mediaUpload(genericFields, { requireConnectedAccount: false, imagesOnly: false });

/** A refused fetch of a URL: over the size limit is 413, anything else names the `url` field. */
const urlRefusal = (err: unknown): unknown =>
  err instanceof UrlRefusedError ? (err.reason === 'size' ? new AppError('PAYLOAD_TOO_LARGE', `The file at ${err.message.replace(/^url's file/, 'url')}`) : invalidParameters([err.message])) : err;

const mediaFromUrl = route({
  method: 'post',
  path: '/media/uploads/from_url',
  tag: 'Media',
  summary: 'Upload media for a platform from a URL',
  description: [
    'The gateway fetches the file at `url` and stores it exactly as POST /media/uploads stores an upload (the same',
    'platform limits and checks of the bytes; the answer is the same). Only https URLs whose host resolves to public',
    'addresses are fetched (loopback, private, link-local and metadata addresses are refused, also after a redirect;',
    'at most 3 redirects); the whole fetch must end within 30 s. `content_type` defaults to the type the URL answers',
    'with. A URL that cannot be fetched, answers an error or is refused: 422 INVALID_PARAMETERS naming url; a file over',
    "the platform's limit: 413 PAYLOAD_TOO_LARGE. For agents (the MCP tool upload_media_from_url) and for files already online.",
  ].join(' '),
  audience: 'api_key',
  scope: 'publish:write',
  plan: 'paid',
  body: z
    .object({
      url: z.string().min(1).max(2048).describe('https URL of the image or video'),
      platform: z.enum(UPLOAD_PLATFORMS),
      content_type: mime.optional().describe('MIME type of the file; default: the Content-Type the URL answers with'),
    })
    .strict(),
  errors: ['PAYLOAD_TOO_LARGE'],
  status: 201,
  response: UploadResultSchema,
  handle: async ({ clients, principal, body }) => {
    const fetched = await clients.web.get(body.url, maxUploadBytes(body.platform)).catch((err: unknown) => {
      throw urlRefusal(err);
    });
    const contentType = body.content_type ?? fetched.contentType;
    if (!contentType || !/^[a-z]+\/[\w.+-]+$/.test(contentType)) throw invalidParameters(['content_type: the URL did not say what type its file is; give content_type']);
    const sink = await genericUpload.open({ clients, principal });
    try {
      await sink.field('platform', body.platform);
      await sink.field('content_type', contentType);
      for await (const chunk of fetched.body) await sink.chunk(chunk);
    } catch (err) {
      sink.cancel();
      throw urlRefusal(err);
    }
    return sink.finish();
  },
});

export const mediaRoutes = [
  streamedUpload(
    route({
      method: 'post',
      path: '/media/uploads',
      tag: 'Media',
      summary: 'Upload media for a platform',
      description: [
        '`platform` selects the type and size limits of GET /platforms; facebook, pinterest and threads take images only here',
        '(Facebook video: the presigned upload). For twitter, mastodon and bluesky one r2_key serves every targeted account:',
        "the publisher uploads it as each account's native media at publish time.",
        `Limits: ${UPLOAD_PLATFORMS.map((p) => `${p}: ${limitsText(p)}`).join(' | ')}.`,
        'Fields may come in any order; when `media` comes before `platform`, the size is checked against the largest limit',
        "of any platform while it arrives and against the platform's at the end.",
        COMMON,
      ].join(' '),
      audience: 'api_key',
      scope: 'publish:write',
      plan: 'paid',
      body: genericFields.extend({ media }),
      bodyLimit: String(bodyLimitFor(genericUpload.maxBytes)),
      status: 201,
      response: UploadResultSchema,
    }),
    genericUpload,
  ),
  mediaFromUrl,
  uploadRoute('facebook', { imagesOnly: true, contentTypes: ['image/jpeg', 'image/png'] }),
  uploadRoute('instagram', {}),
  uploadRoute('discord', { connected: true }),
  uploadRoute('telegram', { connected: true }),
  uploadRoute('tumblr', { connected: true }),
  uploadRoute('slack', { connected: true }),
  route({
    method: 'get',
    path: '/facebook/uploads/presign',
    tag: 'Media',
    summary: 'Presigned upload of a Facebook video',
    description:
      'Reserves an r2_key and answers a URL that accepts ONE `PUT` of the video bytes, with exactly the given ' +
      '`Content-Type` and `Content-Length` headers, until `expires_at` (1 hour). An upload of another size or type, ' +
      'after expiry, or a second one is refused (403 for a signature, type, size or expiry mismatch). ' +
      `Video types and size: ${
        limitsText('facebook')
          .split('; ')
          .find((t) => t.startsWith('video')) ?? ''
      }. ` +
      "On the local stack the URL points at this gateway's /media relay (streamed to the media service, never buffered); with S3 storage at the bucket.",
    audience: 'api_key',
    scope: 'publish:write',
    plan: 'paid',
    query: z
      .object({
        content_type: mime,
        file_size: queryInt('int64', 1, Number.MAX_SAFE_INTEGER).describe('Size of the video in bytes (at most 1 GB)'),
      })
      .strict(),
    status: 200,
    response: z
      .object({
        upload_url: z.string().describe('PUT the bytes here with the same Content-Type and Content-Length'),
        r2_key: z.string(),
        expires_at: z.string().describe('ISO 8601 UTC; the URL stops working then'),
      })
      .meta({ id: 'PresignedUpload' }),
    handle: async ({ clients, principal, query }) => {
      const out = await clients.media.createPresignedUpload({
        workspaceId: principal.workspaceId,
        platform: 'facebook',
        contentType: query.content_type,
        sizeBytes: query.file_size,
      });
      return { upload_url: out.uploadUrl, r2_key: out.r2Key, expires_at: out.expiresAt };
    },
  }),
  route({
    method: 'delete',
    path: '/tumblr/media_uploads/{r2_key}',
    tag: 'Media',
    summary: 'Delete an uploaded Tumblr media file',
    description:
      'The r2_key goes in the path URL-encoded (its slashes as %2F). 403 MEDIA_NOT_OWNED when the file belongs to another ' +
      'workspace (the contract asks for 403 here, unlike other resources); 404 when no Tumblr upload has this key.',
    audience: 'api_key',
    scope: 'publish:write',
    plan: 'paid',
    params: z.object({ r2_key: z.string().min(1).max(200) }),
    status: 200,
    response: z.object({ deleted: z.literal(true), r2_key: z.string() }).meta({ id: 'DeletedMedia' }),
    handle: async ({ clients, principal, params }) => {
      await clients.media.deleteMedia({ workspaceId: principal.workspaceId, r2Key: params.r2_key, platform: 'tumblr' });
      return { deleted: true, r2_key: params.r2_key };
    },
  }),
];
