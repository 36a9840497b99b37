import { LinkedInAssetKind } from '@spa/contracts/media/v1/linkedin_assets';
import { CAPABILITIES } from '@spa/platforms';
import { z } from 'zod';
import { Base64Decoder } from '../http/base64-decoder.js';
import { route } from './route.js';

/**
 * The largest video one base64 JSON upload carries: the whole file travels in one body and one gRPC
 * message per hop (64 MiB cap), so LinkedIn's 500 MB is capped at 50 MiB here. The media service
 * enforces the same figure (services/media/src/linkedin/domain/limits.ts) with the exact byte count.
 */
const VIDEO_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

const rules = CAPABILITIES.linkedin.media!;
const LIMITS = {
  image: { types: rules.image!.content_types, maxBytes: rules.image!.max_bytes },
  video: { types: rules.video!.content_types, maxBytes: Math.min(rules.video!.max_bytes, VIDEO_UPLOAD_MAX_BYTES) },
} as const;

/** The JSON body of the largest file: its base64 text plus the other fields (1 KiB is plenty). */
const bodyLimit = (maxBytes: number) => String(Math.ceil(maxBytes / 3) * 4 + 1024);

const uploadBody = (kind: keyof typeof LIMITS) =>
  z.strictObject({
    content_type: z
      .string()
      .min(1)
      .max(100)
      .describe(`MIME type of the ${kind}: ${LIMITS[kind].types.join(', ')}. It must be what the bytes are (checked from the bytes, not trusted).`),
    social_account_id: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('The LinkedIn account that will own the asset. Optional when exactly one LinkedIn account is connected; required (422) when several are.'),
    media: z
      .string()
      .min(1)
      .describe(`The ${kind} file, base64 (standard alphabet, padding optional, no whitespace, no data: URL prefix); at most ${LIMITS[kind].maxBytes} bytes once decoded.`),
  });

const AssetUploadSchema = z
  .object({
    asset_urn: z.string().describe("LinkedIn's URN of the uploaded asset (urn:li:image:… or urn:li:video:…). Put it in a LinkedIn post content's metadata.asset_urn; only the account that uploaded it can publish it."),
    social_account_id: z.number().int().describe('The account the asset belongs to (the chosen one when none was given).'),
  })
  .meta({ id: 'LinkedInAssetUpload' });

const KIND = { image: LinkedInAssetKind.LINKED_IN_ASSET_KIND_IMAGE, video: LinkedInAssetKind.LINKED_IN_ASSET_KIND_VIDEO } as const;

function uploadRoute(kind: keyof typeof LIMITS, path: string, extra: { bucket?: 'linkedin_video_uploads'; description: string }) {
  return route({
    method: 'post',
    path,
    tag: 'Media',
    summary: `Upload a ${kind} to LinkedIn`,
    description:
      `${extra.description} Body: {content_type, social_account_id?, media}; the file is registered with LinkedIn for the account and uploaded; ` +
      'the answer is its asset URN. Bad input stores and uploads nothing: invalid base64 or a data: prefix, a declared type that is not ' +
      `what the bytes are, or anything that is not ${LIMITS[kind].types.join('/')} (SVG, HTML…) is 422 naming the field; a larger file is 413. ` +
      "An account of another workspace is 404; LinkedIn refusing the account's token marks it disconnected (422).",
    audience: 'api_key',
    scope: 'publish:write',
    plan: 'paid',
    ...(extra.bucket ? { bucket: extra.bucket } : {}),
    body: uploadBody(kind),
    bodyLimit: bodyLimit(LIMITS[kind].maxBytes),
    status: 201,
    response: AssetUploadSchema,
    handle: async ({ clients, principal, body }) => {
      const decoder = new Base64Decoder('media');
      const head = decoder.push(body.media);
      const tail = decoder.end();
      const data = tail.length ? Buffer.concat([head, tail]) : head; // padded base64 leaves no tail: no second copy
      const { asset } = await clients.linkedInAssets.uploadLinkedInAsset({
        workspaceId: principal.workspaceId,
        socialAccountId: body.social_account_id,
        kind: KIND[kind],
        contentType: body.content_type,
        data,
      });
      return { asset_urn: asset!.assetUrn, social_account_id: asset!.socialAccountId };
    },
  });
}

export const linkedInUploadRoutes = [
  uploadRoute('image', '/linkedin/image_uploads', { description: `JPEG, PNG or GIF up to ${LIMITS.image.maxBytes} bytes (LinkedIn's limit).` }),
  uploadRoute('video', '/linkedin/video_uploads', {
    bucket: 'linkedin_video_uploads',
    description:
      `MP4 up to ${LIMITS.video.maxBytes} bytes (LinkedIn takes 500 MB; one JSON body carries at most this). 10 uploads per hour per token. ` +
      'The video is sent to LinkedIn in the byte ranges it asks for and finalized before the answer.',
  }),
];
