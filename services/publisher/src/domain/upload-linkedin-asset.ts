import { AppError } from '@spa/errors';
import { uploadRules } from '@spa/platforms';
import type { LinkedInUploads } from '../connectors/linkedin-uploads.js';
import { ConnectorError } from '../connectors/types.js';
import type { AccountsPort } from './ports.js';

export interface UploadLinkedInAssetDeps {
  accounts: AccountsPort;
  uploads: LinkedInUploads;
}

export interface UploadLinkedInAssetInput {
  workspaceId: number;
  socialAccountId: number;
  kind: 'image' | 'video';
  /** The size of the whole file: exactly this many bytes must come. */
  sizeBytes: number;
  /** The file's bytes as they arrive. */
  bytes: AsyncIterable<Uint8Array>;
}

/** LinkedIn's limits, from the capability table (libs/platforms). */
const RULES = uploadRules('linkedin');

/**
 * Uploads media to LinkedIn for one LinkedIn account of the workspace, owned by its author URN, as
 * its bytes arrive (a video goes to LinkedIn part by part; nothing is finalized unless every announced
 * byte came). The caller (the media service) has checked the bytes; LinkedIn's answers become the
 * API's errors: a refused token disconnects the account (422, reconnect it), a refusal is 422 with
 * LinkedIn's message, LinkedIn's rate limit is 429, anything else (5xx, no answer) 503.
 */
export async function uploadLinkedInAsset(deps: UploadLinkedInAssetDeps, input: UploadLinkedInAssetInput): Promise<{ assetUrn: string; ownerUrn: string }> {
  const max = RULES[input.kind]!.max_bytes;
  if (!Number.isSafeInteger(input.sizeBytes) || input.sizeBytes < 1) {
    throw new AppError('INVALID_PARAMETERS', 'Nothing to upload', { details: ['size_bytes: must be a positive integer'] });
  }
  if (input.sizeBytes > max) throw new AppError('PAYLOAD_TOO_LARGE', `A LinkedIn ${input.kind} takes at most ${max} bytes; this one has ${input.sizeBytes}`);
  const [target] = await deps.accounts.targets(input.workspaceId, [input.socialAccountId]);
  if (!target) throw new AppError('NOT_FOUND', `Social account ${input.socialAccountId} not found`);
  if (target.platform !== 'linkedin') {
    throw new AppError('INVALID_PARAMETERS', 'Not a LinkedIn account', { details: [`social_account_id: account ${input.socialAccountId} is a ${target.platform} account, not LinkedIn`] });
  }
  try {
    const { urn, owner } = await deps.uploads.uploadStream(target, input.kind, input.sizeBytes, input.bytes);
    return { assetUrn: urn, ownerUrn: owner };
  } catch (err) {
    if (!(err instanceof ConnectorError)) throw err;
    switch (err.kind) {
      case 'auth':
        await deps.accounts.markDisconnected(input.workspaceId, input.socialAccountId);
        throw new AppError('INVALID_PARAMETERS', `LinkedIn refused the credentials of social account ${input.socialAccountId}; reconnect it`, {
          details: [`social_account_id: ${err.message}`],
        });
      case 'rejected':
        throw new AppError('INVALID_PARAMETERS', `LinkedIn refused the upload: ${err.message}`, { details: [`${input.kind}: ${err.message}`] });
      case 'rate_limited':
        throw new AppError('RATE_LIMIT_EXCEEDED', "LinkedIn's rate limit for this account was reached; retry later", {
          retryAfter: Math.max(1, Math.ceil((err.retryAfterMs ?? 60_000) / 1000)),
        });
      default:
        throw new AppError('SERVICE_UNAVAILABLE', `LinkedIn did not complete the upload: ${err.message}`);
    }
  }
}
