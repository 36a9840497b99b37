import { AppError } from '@spa/errors';
import { checkLinkedInMedia } from './check-media.js';
import { chooseLinkedInAccount } from './choose-account.js';
import type { LinkedInAsset, LinkedInAssetKind } from './model.js';
import type { LinkedInAssetsDeps } from './ports.js';

export interface UploadLinkedInAssetInput {
  workspaceId: number;
  socialAccountId?: number | undefined;
  kind: LinkedInAssetKind;
  contentType: string;
  bytes: Buffer;
}

/**
 * Checks the bytes, chooses the account, uploads to LinkedIn through the publisher and records which
 * account owns the URN. Bad input is refused before anything reaches LinkedIn or the store.
 */
export async function uploadLinkedInAsset(deps: LinkedInAssetsDeps, input: UploadLinkedInAssetInput): Promise<LinkedInAsset> {
  await checkLinkedInMedia(input.kind, input.contentType, input.bytes);
  const account = await chooseLinkedInAccount(deps.accounts, input.workspaceId, input.socialAccountId);
  const uploaded = await deps.publisher.uploadLinkedInAsset({
    workspaceId: input.workspaceId,
    socialAccountId: account.id,
    kind: input.kind,
    contentType: input.contentType,
    bytes: input.bytes,
  });
  const asset: LinkedInAsset = {
    assetUrn: uploaded.assetUrn,
    workspaceId: input.workspaceId,
    socialAccountId: account.id,
    kind: input.kind,
    contentType: input.contentType,
    sizeBytes: input.bytes.length,
    ownerUrn: uploaded.ownerUrn,
    createdAt: deps.clock.now(),
  };
  await deps.store.insert(asset);
  return asset;
}

/** A recorded asset of the workspace. */
export async function getLinkedInAsset(deps: Pick<LinkedInAssetsDeps, 'store'>, workspaceId: number, assetUrn: string): Promise<LinkedInAsset> {
  const asset = await deps.store.get(workspaceId, assetUrn);
  if (!asset) throw new AppError('NOT_FOUND', `LinkedIn asset ${assetUrn} not found`);
  return asset;
}
