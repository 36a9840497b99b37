import { LinkedInAssetsServiceClient } from '@spa/contracts/media/v1/linkedin_assets';
import { createClient } from '@spa/grpc';
import type { LinkedInAssetRecords } from '../connectors/linkedin.js';
import { ConnectorError } from '../connectors/types.js';

/** The media service's record of LinkedIn uploads: which social account uploaded each asset URN. */
export function linkedInAssetRecords(address: string): LinkedInAssetRecords & { close(): void } {
  const client = createClient(LinkedInAssetsServiceClient, address, { deadlineMs: 10_000 });
  return {
    async uploaderOf(assetUrn) {
      const { asset } = await client.findLinkedInAsset({ assetUrn }).catch((err: unknown) => {
        // Media unreachable: the target is retried like any transient failure.
        throw new ConnectorError('transient', `linkedin: the record of asset_urn ${assetUrn} could not be read: ${(err as Error).message}`);
      });
      return asset?.socialAccountId;
    },
    close: () => client.close(),
  };
}
