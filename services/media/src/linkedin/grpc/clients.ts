import { LinkedInAssetKind as PublisherKind, PublisherServiceClient, type UploadLinkedInAssetRequest } from '@spa/contracts/publisher/v1/publisher';
import { createStreamingClient } from '@spa/grpc';
import type { PublisherPort } from '../domain/ports.js';

const KIND = { image: PublisherKind.LINKED_IN_ASSET_KIND_IMAGE, video: PublisherKind.LINKED_IN_ASSET_KIND_VIDEO } as const;

const EMPTY: UploadLinkedInAssetRequest = {
  workspaceId: 0,
  socialAccountId: 0,
  kind: PublisherKind.LINKED_IN_ASSET_KIND_UNSPECIFIED,
  contentType: '',
  sizeBytes: 0,
  chunk: Buffer.alloc(0),
  complete: false,
};

/**
 * The publisher's UploadLinkedInAsset as a client stream: a first message with the account, kind, type
 * and size, then the bytes as they are read (each write waits for the transport, so a publisher busy
 * PUTting a part to LinkedIn slows the reading instead of piling bytes up), then the complete mark.
 */
export function publisherPort(address: string, deadlineMs: number): PublisherPort & { close(): void } {
  const client = createStreamingClient(PublisherServiceClient, address, { deadlineMs, streamDeadlineMs: deadlineMs });
  return {
    async uploadLinkedInAsset(input) {
      const call = client.clientStream('uploadLinkedInAsset');
      try {
        await call.write({
          ...EMPTY,
          workspaceId: input.workspaceId,
          socialAccountId: input.socialAccountId,
          kind: KIND[input.kind],
          contentType: input.contentType,
          sizeBytes: input.sizeBytes,
        });
        for await (const chunk of input.bytes) await call.write({ ...EMPTY, chunk: Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) });
        await call.write({ ...EMPTY, complete: true });
        const answer = await call.end();
        return { assetUrn: answer.assetUrn, ownerUrn: answer.ownerUrn };
      } catch (err) {
        call.cancel();
        throw err;
      }
    },
    close: () => client.close(),
  };
}
