import { AppError } from '@spa/errors';
import { ruleAccepts } from '@spa/platforms';
import { fileTypeFromBuffer } from 'file-type';
import { LINKEDIN_UPLOAD_RULES } from './limits.js';
import type { LinkedInAssetKind } from './model.js';

const invalid = (message: string, detail: string) => new AppError('INVALID_PARAMETERS', message, { details: [detail] });

/**
 * Checks an upload against LinkedIn's rules for its kind: the declared type must be one LinkedIn takes,
 * the size within the limit, and the bytes must really be that type (sniffed from their signature, so
 * SVG, HTML or anything else posing as an image is refused whatever it declares). Field names are the
 * API's (`content_type`, `media`).
 */
export async function checkLinkedInMedia(kind: LinkedInAssetKind, declared: string, bytes: Buffer): Promise<void> {
  const rule = LINKEDIN_UPLOAD_RULES[kind];
  const accepted = rule.content_types.join(', ');
  if (!ruleAccepts(rule, declared)) {
    throw invalid(`content_type is not accepted for a LinkedIn ${kind}`, `content_type: '${declared}' is not accepted for a LinkedIn ${kind} (accepted: ${accepted})`);
  }
  if (!bytes.length) throw invalid('media is empty', 'media: no bytes');
  if (bytes.length > rule.max_bytes) {
    throw new AppError('PAYLOAD_TOO_LARGE', `The ${kind} is ${bytes.length} bytes; a LinkedIn ${kind} upload takes at most ${rule.max_bytes} bytes`);
  }
  const sniffed = (await fileTypeFromBuffer(bytes))?.mime;
  if (!sniffed || !ruleAccepts(rule, sniffed)) {
    throw invalid(`media is not a ${accepted} file`, `media: the bytes are ${sniffed ?? 'of no recognised media format'}; a LinkedIn ${kind} must be ${accepted}`);
  }
  if (sniffed !== declared) throw invalid('content_type does not match the bytes', `content_type: '${declared}' was declared but the bytes are ${sniffed}`);
}
