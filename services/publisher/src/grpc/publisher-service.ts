import { LinkedInAssetKind, PublisherServiceService } from '@spa/contracts/publisher/v1/publisher';
import { AppError } from '@spa/errors';
import { bindService, type ServiceBinding } from '@spa/grpc';
import { uploadLinkedInAsset, type UploadLinkedInAssetDeps } from '../domain/upload-linkedin-asset.js';

const KINDS: Partial<Record<LinkedInAssetKind, 'image' | 'video'>> = {
  [LinkedInAssetKind.LINKED_IN_ASSET_KIND_IMAGE]: 'image',
  [LinkedInAssetKind.LINKED_IN_ASSET_KIND_VIDEO]: 'video',
};

/** publisher.v1.PublisherService: platform actions for one connected account, outside publishing jobs. */
export function publisherService(deps: UploadLinkedInAssetDeps): ServiceBinding {
  return bindService('publisher.v1.PublisherService', PublisherServiceService, {
    uploadLinkedInAsset: async (req) => {
      const kind = KINDS[req.kind];
      if (!kind) throw new AppError('INVALID_PARAMETERS', 'kind must be image or video', { details: ['kind: must be IMAGE or VIDEO'] });
      return uploadLinkedInAsset(deps, { workspaceId: req.workspaceId, socialAccountId: req.socialAccountId, kind, bytes: req.data });
    },
  });
}
