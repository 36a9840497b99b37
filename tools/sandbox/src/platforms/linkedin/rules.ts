import type { InspectedMedia } from '../../media/inspect.js';
import { mediaViolation, type SandboxMediaRule } from '../../media/rules.js';
import type { PlatformRules } from '../../router.js';

const IMAGES_API = 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/images-api';
const VIDEOS_API = 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api';
const DOCUMENTS_API = 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/documents-api';
const MULTI_IMAGE = 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/multiimage-post-api';
const POSTS_API = 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api';

const MB = 1024 * 1024;
/** Images API: JPG, GIF, PNG, fewer than 36,152,320 pixels, GIFs of at most 250 frames; 5 MB as the posting tools document it. */
export const LINKEDIN_IMAGE: SandboxMediaRule = { types: ['image/jpeg', 'image/png', 'image/gif'], max_bytes: 5 * MB, max_pixels: 36_152_319, max_frames: 250, source: IMAGES_API };
/** Videos API: MP4, 3 seconds to 30 minutes, 75 KB to 500 MB. */
export const LINKEDIN_VIDEO: SandboxMediaRule = { types: ['video/mp4'], max_bytes: 500 * MB, min_duration_s: 3, max_duration_s: 30 * 60, source: VIDEOS_API };
/** Documents API: PDF, PPT, PPTX, DOC, DOCX up to 100 MB and 300 pages. */
export const LINKEDIN_DOCUMENT: SandboxMediaRule = {
  types: [
    'application/pdf',
    'application/vnd.ms-powerpoint',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'application/msword',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    // How the bytes of a legacy Office file (PPT, DOC) read: the OLE compound file container.
    'application/x-cfb',
  ],
  max_bytes: 100 * MB,
  source: DOCUMENTS_API,
};
export const LINKEDIN_VIDEO_MIN_BYTES = 75 * 1024;
export const LINKEDIN_DOCUMENT_MAX_PAGES = 300;
export const LINKEDIN_MULTI_IMAGE = { min: 2, max: 20 } as const;

export const LINKEDIN_RULES: PlatformRules = {
  media: { image: LINKEDIN_IMAGE, video: LINKEDIN_VIDEO, document: LINKEDIN_DOCUMENT },
  other: [
    { rule: 'an uploaded file that breaks the rules ends PROCESSING_FAILED; a post using it is refused (400)', source: IMAGES_API },
    { rule: 'a video is at least 75 KB (initializeUpload fileSizeBytes)', source: VIDEOS_API },
    { rule: 'a document has at most 300 pages; a document post needs content.media.title', source: DOCUMENTS_API },
    { rule: 'a multi-image post has 2 to 20 images', source: MULTI_IMAGE },
    { rule: 'commentary at most 3000 characters; a post may use only AVAILABLE media owned by its author', source: POSTS_API },
  ],
};

/** A PDF's page count, as LinkedIn's converter would count it: its `/Type /Page` objects. */
function pdfPages(bytes: Buffer): number {
  return bytes.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
}

/** Why LinkedIn would fail processing this upload, or undefined. */
export function assetViolation(kind: 'image' | 'video' | 'document', media: InspectedMedia, bytes: Buffer): string | undefined {
  if (kind === 'image') return mediaViolation(media, LINKEDIN_IMAGE);
  if (kind === 'video') {
    if (media.bytes < LINKEDIN_VIDEO_MIN_BYTES) return `file size ${media.bytes} bytes is below the minimum of ${LINKEDIN_VIDEO_MIN_BYTES}`;
    return mediaViolation(media, LINKEDIN_VIDEO);
  }
  const problem = mediaViolation(media, LINKEDIN_DOCUMENT);
  if (problem) return problem;
  if (media.content_type === 'application/pdf') {
    const pages = pdfPages(bytes);
    if (pages > LINKEDIN_DOCUMENT_MAX_PAGES) return `the document has ${pages} pages; at most ${LINKEDIN_DOCUMENT_MAX_PAGES} are accepted`;
  }
  return undefined;
}
