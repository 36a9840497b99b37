import { LinkedInAssetKind, LinkedInAssetsServiceService, type LinkedInAsset as AssetMessage } from '@spa/contracts/media/v1/linkedin_assets';
import { AppError } from '@spa/errors';
import { bindService, type ServiceBinding } from '@spa/grpc';
import type { LinkedInAsset } from '../domain/model.js';
import type { LinkedInAssetsDeps } from '../domain/ports.js';
import { getLinkedInAsset, uploadLinkedInAsset } from '../domain/upload-linkedin-asset.js';

const KINDS: Partial<Record<LinkedInAssetKind, LinkedInAsset['kind']>> = {
  [LinkedInAssetKind.LINKED_IN_ASSET_KIND_IMAGE]: 'image',
  [LinkedInAssetKind.LINKED_IN_ASSET_KIND_VIDEO]: 'video',
};

const message = (a: LinkedInAsset): AssetMessage => ({
  assetUrn: a.assetUrn,
  workspaceId: a.workspaceId,
  socialAccountId: a.socialAccountId,
  kind: a.kind === 'image' ? LinkedInAssetKind.LINKED_IN_ASSET_KIND_IMAGE : LinkedInAssetKind.LINKED_IN_ASSET_KIND_VIDEO,
  contentType: a.contentType,
  sizeBytes: a.sizeBytes,
  ownerUrn: a.ownerUrn,
  createdAt: a.createdAt.toISOString(),
});

/** media.v1.LinkedInAssetsService: LinkedIn image and video uploads and the record of their URNs. */
export function linkedInAssetsService(deps: LinkedInAssetsDeps): ServiceBinding {
  return bindService('media.v1.LinkedInAssetsService', LinkedInAssetsServiceService, {
    uploadLinkedInAsset: async (req) => {
      const kind = KINDS[req.kind];
      if (!kind) throw new AppError('INVALID_PARAMETERS', 'kind must be image or video', { details: ['kind: must be IMAGE or VIDEO'] });
      const asset = await uploadLinkedInAsset(deps, { workspaceId: req.workspaceId, socialAccountId: req.socialAccountId, kind, contentType: req.contentType, bytes: req.data });
      return { asset: message(asset) };
    },
    getLinkedInAsset: async (req) => ({ asset: message(await getLinkedInAsset(deps, req.workspaceId, req.assetUrn)) }),
    findLinkedInAsset: async (req) => {
      const asset = await deps.store.find(req.assetUrn);
      return asset ? { asset: message(asset) } : {};
    },
  });
}
