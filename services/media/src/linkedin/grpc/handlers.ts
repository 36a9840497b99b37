import { LinkedInAssetKind, LinkedInAssetsServiceService, type LinkedInAsset as AssetMessage, type UploadLinkedInAssetRequest } from '@spa/contracts/media/v1/linkedin_assets';
import { invalidParameters } from '@spa/errors';
import { bindService, type ServiceBinding } from '@spa/grpc';
import type { LinkedInAsset } from '../domain/model.js';
import type { LinkedInAssetsDeps } from '../domain/ports.js';
import { getLinkedInAsset, uploadLinkedInAsset, type LinkedInUploadPart } from '../domain/upload-linkedin-asset.js';

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

async function* uploadParts(requests: AsyncIterable<UploadLinkedInAssetRequest>): AsyncIterable<LinkedInUploadPart> {
  for await (const m of requests) {
    const kind = m.kind === LinkedInAssetKind.LINKED_IN_ASSET_KIND_UNSPECIFIED ? undefined : KINDS[m.kind];
    if (m.kind !== LinkedInAssetKind.LINKED_IN_ASSET_KIND_UNSPECIFIED && !kind) throw invalidParameters(['kind: must be IMAGE or VIDEO']);
    yield {
      workspaceId: m.workspaceId || undefined,
      kind,
      socialAccountId: m.socialAccountId,
      contentType: m.contentType,
      chunk: m.chunk,
      complete: m.complete,
    };
  }
}

/** media.v1.LinkedInAssetsService: LinkedIn image and video uploads and the record of their URNs. */
export function linkedInAssetsService(deps: LinkedInAssetsDeps): ServiceBinding {
  return bindService('media.v1.LinkedInAssetsService', LinkedInAssetsServiceService, {
    uploadLinkedInAsset: async (requests) => ({ asset: message(await uploadLinkedInAsset(deps, uploadParts(requests))) }),
    getLinkedInAsset: async (req) => ({ asset: message(await getLinkedInAsset(deps, req.workspaceId, req.assetUrn)) }),
    findLinkedInAsset: async (req) => {
      const asset = await deps.store.find(req.assetUrn);
      return asset ? { asset: message(asset) } : {};
    },
  });
}
