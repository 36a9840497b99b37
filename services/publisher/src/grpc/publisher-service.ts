import { LinkedInAssetKind, PublisherServiceService, type UploadLinkedInAssetRequest } from '@spa/contracts/publisher/v1/publisher';
import { invalidParameters } from '@spa/errors';
import { bindService, type ServiceBinding } from '@spa/grpc';
import { uploadLinkedInAsset, type UploadLinkedInAssetDeps } from '../domain/upload-linkedin-asset.js';

const KINDS: Partial<Record<LinkedInAssetKind, 'image' | 'video'>> = {
  [LinkedInAssetKind.LINKED_IN_ASSET_KIND_IMAGE]: 'image',
  [LinkedInAssetKind.LINKED_IN_ASSET_KIND_VIDEO]: 'video',
};

/**
 * The bytes of the messages after the first (and any in the first), in order, ending at the message
 * marked complete: a stream that ends without it (a sender that went away) fails instead of ending.
 */
async function* bytesOf(first: UploadLinkedInAssetRequest, rest: AsyncIterator<UploadLinkedInAssetRequest>): AsyncIterable<Uint8Array> {
  let message = first;
  for (;;) {
    if (message.chunk.length) yield message.chunk;
    if (message.complete) return;
    const next = await rest.next();
    if (next.done) throw invalidParameters(['upload: the stream ended before its last piece (the sender went away)']);
    message = next.value;
  }
}

/** publisher.v1.PublisherService: platform actions for one connected account, outside publishing jobs. */
export function publisherService(deps: UploadLinkedInAssetDeps): ServiceBinding {
  return bindService('publisher.v1.PublisherService', PublisherServiceService, {
    uploadLinkedInAsset: async (requests) => {
      const messages = requests[Symbol.asyncIterator]();
      const first = await messages.next();
      if (first.done) throw invalidParameters(['upload: no message arrived']);
      const header = first.value;
      const kind = KINDS[header.kind];
      if (!kind) throw invalidParameters(['kind: must be IMAGE or VIDEO']);
      return uploadLinkedInAsset(deps, {
        workspaceId: header.workspaceId,
        socialAccountId: header.socialAccountId,
        kind,
        sizeBytes: header.sizeBytes,
        bytes: bytesOf(header, messages),
      });
    },
  });
}
