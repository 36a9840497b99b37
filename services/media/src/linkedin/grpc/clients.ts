import { LinkedInAssetKind as PublisherKind, PublisherServiceClient } from '@spa/contracts/publisher/v1/publisher';
import { createClient } from '@spa/grpc';
import type { PublisherPort } from '../domain/ports.js';

const KIND = { image: PublisherKind.LINKED_IN_ASSET_KIND_IMAGE, video: PublisherKind.LINKED_IN_ASSET_KIND_VIDEO } as const;

export function publisherPort(address: string, deadlineMs: number): PublisherPort & { close(): void } {
  const client = createClient(PublisherServiceClient, address, { deadlineMs });
  return {
    async uploadLinkedInAsset(input) {
      const answer = await client.uploadLinkedInAsset({
        workspaceId: input.workspaceId,
        socialAccountId: input.socialAccountId,
        kind: KIND[input.kind],
        contentType: input.contentType,
        data: input.bytes,
      });
      return { assetUrn: answer.assetUrn, ownerUrn: answer.ownerUrn };
    },
    close: () => client.close(),
  };
}
