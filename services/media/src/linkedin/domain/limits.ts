import { CAPABILITIES, type MediaRule } from '@spa/platforms';
import type { LinkedInAssetKind } from './model.js';

/**
 * The largest video one base64 JSON upload carries. LinkedIn takes up to 500 MB, but this endpoint moves
 * the whole file in one request body and one gRPC message per hop (gateway → media → publisher, each
 * capped at 64 MiB by libs/grpc), so a video is capped here; the gateway's body limit
 * (gateway/src/routes/linkedin-uploads.ts) is sized from the same figure.
 */
export const LINKEDIN_VIDEO_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

const linkedin = CAPABILITIES.linkedin.media!;

/** What a LinkedIn upload of each kind accepts: LinkedIn's types and sizes from the capability table. */
export const LINKEDIN_UPLOAD_RULES: Readonly<Record<LinkedInAssetKind, MediaRule>> = {
  image: linkedin.image!,
  video: { ...linkedin.video!, max_bytes: Math.min(linkedin.video!.max_bytes, LINKEDIN_VIDEO_UPLOAD_MAX_BYTES) },
};
