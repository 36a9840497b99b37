import type { ServiceBinding } from '@spa/grpc';
import type { Connection } from '@spa/mongo';
import { MongoLinkedInAssetStore } from './data/asset-store.js';
import type { AccountsPort } from './domain/ports.js';
import { publisherPort } from './grpc/clients.js';
import { linkedInAssetsService } from './grpc/handlers.js';

export { linkedInAssetsService } from './grpc/handlers.js';

/**
 * The LinkedIn asset part of the media service, wired: its collection on the media database (register
 * it before syncIndexes), its streaming client of the publisher, and its gRPC service (uploads staged
 * in the media uploads' staging directory).
 */
export function linkedInAssets(
  mongo: Connection,
  accounts: AccountsPort,
  config: { PUBLISHER_ADDR: string; LINKEDIN_UPLOAD_DEADLINE_MS: number; MEDIA_STAGING_DIR: string },
): { service: ServiceBinding; close(): void } {
  const publisher = publisherPort(config.PUBLISHER_ADDR, config.LINKEDIN_UPLOAD_DEADLINE_MS);
  const store = new MongoLinkedInAssetStore(mongo);
  return {
    service: linkedInAssetsService({ accounts, publisher, store, clock: { now: () => new Date() }, stagingDir: config.MEDIA_STAGING_DIR }),
    close: () => publisher.close(),
  };
}
