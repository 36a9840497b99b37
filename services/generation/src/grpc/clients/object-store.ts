import type { MediaServiceClient } from '@spa/contracts/media/v1/media';
import type { PromiseClient } from '@spa/grpc';
import type { ObjectStore, StoredObject } from '../../domain/writing/ports.js';

/** ObjectStore over the media service's StoreObject. */
export class GrpcObjectStore implements ObjectStore {
  constructor(private readonly media: Pick<PromiseClient<MediaServiceClient>, 'storeObject'>) {}

  async store(object: { workspaceId: number; contentType: string; data: Uint8Array; purpose: string }): Promise<StoredObject> {
    const stored = await this.media.storeObject({
      workspaceId: object.workspaceId,
      contentType: object.contentType,
      data: Buffer.from(object.data),
      purpose: object.purpose,
    });
    return { r2Key: stored.r2Key, url: stored.url, sizeBytes: stored.sizeBytes };
  }
}
