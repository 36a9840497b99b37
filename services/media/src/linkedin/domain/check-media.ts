import { AppError } from '@spa/errors';
import { ruleAccepts, uploadRules, type MediaRule } from '@spa/platforms';
import type { UploadCap } from '../../domain/staging.js';
import type { LinkedInAssetKind } from './model.js';

const rules = uploadRules('linkedin');

/** What a LinkedIn upload of each kind accepts: LinkedIn's types and sizes from the capability table (images 5 MB, MP4 videos 500 MB). */
export const LINKEDIN_UPLOAD_RULES: Readonly<Record<LinkedInAssetKind, MediaRule>> = { image: rules.image!, video: rules.video! };

const invalid = (message: string, detail: string) => new AppError('INVALID_PARAMETERS', message, { details: [detail] });
const accepted = (kind: LinkedInAssetKind) => LINKEDIN_UPLOAD_RULES[kind].content_types.join(', ');

/**
 * The checks of a LinkedIn upload against LinkedIn's rules for its kind, each made as soon as what it
 * needs has arrived: the declared type must be one LinkedIn takes, the size within the limit, and the
 * bytes (sniffed from their signature, so SVG, HTML or anything else posing as an image is refused
 * whatever it declares) must be that type. Field names are the API's (`content_type`, `media`).
 */
export const linkedInChecks = {
  /** The size cap of the kind (enforced while the bytes arrive). */
  cap: (kind: LinkedInAssetKind): UploadCap => ({ bytes: LINKEDIN_UPLOAD_RULES[kind].max_bytes, what: `LinkedIn ${kind}s` }),

  declared(kind: LinkedInAssetKind, declared: string): void {
    if (!ruleAccepts(LINKEDIN_UPLOAD_RULES[kind], declared)) {
      throw invalid(`content_type is not accepted for a LinkedIn ${kind}`, `content_type: '${declared}' is not accepted for a LinkedIn ${kind} (accepted: ${accepted(kind)})`);
    }
  },

  /** The type found in the first bytes (undefined: no known format). */
  sniffed(kind: LinkedInAssetKind, sniffed: string | undefined): void {
    if (!sniffed || !ruleAccepts(LINKEDIN_UPLOAD_RULES[kind], sniffed)) {
      throw invalid(`media is not a ${accepted(kind)} file`, `media: the bytes are ${sniffed ?? 'of no recognised media format'}; a LinkedIn ${kind} must be ${accepted(kind)}`);
    }
  },

  match(declared: string, sniffed: string): void {
    if (sniffed !== declared) throw invalid('content_type does not match the bytes', `content_type: '${declared}' was declared but the bytes are ${sniffed}`);
  },
};
