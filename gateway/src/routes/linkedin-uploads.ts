import { LinkedInAssetKind, type UploadLinkedInAssetRequest, type UploadLinkedInAssetResponse } from '@spa/contracts/media/v1/linkedin_assets';
import { uploadRules } from '@spa/platforms';
import { z } from 'zod';
import { bodyLimitFor, openCallSink, streamedUpload, type UploadSpec } from '../http/media-upload.js';
import { route } from './route.js';
import { idField } from './schemas.js';

/** LinkedIn's limits, from the capability table (the media service checks the same rules with the exact byte count). */
const rules = uploadRules('linkedin');
const LIMITS = {
  image: { types: rules.image!.content_types, maxBytes: rules.image!.max_bytes },
  video: { types: rules.video!.content_types, maxBytes: rules.video!.max_bytes },
} as const;

const uploadFields = (kind: keyof typeof LIMITS) =>
  z.strictObject({
    content_type: z
      .string()
      .min(1)
      .max(100)
      .describe(`MIME type of the ${kind}: ${LIMITS[kind].types.join(', ')}. It must be what the bytes are (checked from the bytes, not trusted).`),
    social_account_id: idField().optional().describe('The LinkedIn account that will own the asset. Optional when exactly one LinkedIn account is connected; required (422) when several are.'),
  });

const media = (kind: keyof typeof LIMITS) =>
  z
    .string()
    .min(1)
    .describe(
      `The ${kind} file, base64 (standard alphabet, padding optional, no whitespace, no data: URL prefix); at most ${LIMITS[kind].maxBytes} bytes once decoded. ` +
        'The body is parsed and decoded as it arrives and the bytes streamed on, never held whole.',
    );

const AssetUploadSchema = z
  .object({
    asset_urn: z
      .string()
      .describe("LinkedIn's URN of the uploaded asset (urn:li:image:… or urn:li:video:…). Put it in a LinkedIn post content's metadata.asset_urn; only the account that uploaded it can publish it."),
    social_account_id: z.number().int().describe('The account the asset belongs to (the chosen one when none was given).'),
  })
  .meta({ id: 'LinkedInAssetUpload' });

const KIND = { image: LinkedInAssetKind.LINKED_IN_ASSET_KIND_IMAGE, video: LinkedInAssetKind.LINKED_IN_ASSET_KIND_VIDEO } as const;

const BLANK: UploadLinkedInAssetRequest = { workspaceId: 0, kind: LinkedInAssetKind.LINKED_IN_ASSET_KIND_UNSPECIFIED, chunk: Buffer.alloc(0), complete: false };

/** A streamed upload into the media service's LinkedInAssetsService.UploadLinkedInAsset. */
function linkedInUpload(kind: keyof typeof LIMITS): UploadSpec {
  return {
    fields: uploadFields(kind),
    maxBytes: LIMITS[kind].maxBytes,
    open: ({ clients, principal }) =>
      openCallSink(
        clients.linkedInAssets.clientStream('uploadLinkedInAsset'),
        {
          blank: BLANK,
          first: { workspaceId: principal.workspaceId, kind: KIND[kind] },
          field: (key, value) => (key === 'social_account_id' ? { socialAccountId: Number(value) } : { contentType: String(value) }),
        },
        ({ asset }: UploadLinkedInAssetResponse) => ({ asset_urn: asset!.assetUrn, social_account_id: asset!.socialAccountId }),
      ),
  };
}

function uploadRoute(kind: keyof typeof LIMITS, path: string, extra: { bucket?: 'linkedin_video_uploads'; description: string }) {
  const spec = linkedInUpload(kind);
  const r = route({
    method: 'post',
    path,
    tag: 'Media',
    summary: `Upload a ${kind} to LinkedIn`,
    description:
      `${extra.description} Body: {content_type, social_account_id?, media}; the file is registered with LinkedIn for the account and uploaded; ` +
      'the answer is its asset URN. Bad input stores and uploads nothing: invalid base64 or a data: prefix, a declared type that is not ' +
      `what the bytes are, or anything that is not ${LIMITS[kind].types.join('/')} (SVG, HTML…) is 422 naming the field; a larger file is 413 ` +
      '(from Content-Length before reading, otherwise as soon as the decoded size passes the limit). ' +
      "An account of another workspace is 404; LinkedIn refusing the account's token marks it disconnected (422). " +
      'Idempotency-Key is not applied (the body is never held whole); a retried upload registers a new asset.',
    audience: 'api_key',
    scope: 'publish:write',
    plan: 'paid',
    ...(extra.bucket ? { bucket: extra.bucket } : {}),
    body: spec.fields.extend({ media: media(kind) }),
    bodyLimit: String(bodyLimitFor(spec.maxBytes)),
    status: 201,
    response: AssetUploadSchema,
  });
  return streamedUpload(r, spec);
}

export const linkedInUploadRoutes = [
  uploadRoute('image', '/linkedin/image_uploads', { description: `JPEG, PNG or GIF up to ${LIMITS.image.maxBytes} bytes (LinkedIn's limit).` }),
  uploadRoute('video', '/linkedin/video_uploads', {
    bucket: 'linkedin_video_uploads',
    description:
      `MP4 up to ${LIMITS.video.maxBytes} bytes (LinkedIn's limit). 10 uploads per hour per token. ` +
      'The video is staged and checked as it arrives, then sent to LinkedIn in the byte ranges it asks for and finalized before the answer.',
  }),
];
