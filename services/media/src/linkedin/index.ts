import type { ServiceBinding } from '@spa/grpc';
import type { Connection } from '@spa/mongo';
import type { LinkedInConfig } from './config.js';
import { MongoLinkedInAssetStore } from './data/asset-store.js';
import { linkedInAccountsPort, publisherPort } from './grpc/clients.js';
import { linkedInAssetsService } from './grpc/handlers.js';

export { linkedInConfigSchema, loadLinkedInConfig, type LinkedInConfig } from './config.js';
export { linkedInAssetsService } from './grpc/handlers.js';

/**
 * The LinkedIn asset part of the media service, wired: its collection on the media database (register
 * it before syncIndexes), its clients of accounts and the publisher, and its gRPC service.
 */
export function linkedInAssets(mongo: Connection, config: LinkedInConfig): { service: ServiceBinding; close(): void } {
  const accounts = linkedInAccountsPort(config.ACCOUNTS_ADDR);
  const publisher = publisherPort(config.PUBLISHER_ADDR, config.LINKEDIN_UPLOAD_DEADLINE_MS);
  const store = new MongoLinkedInAssetStore(mongo);
  return {
    service: linkedInAssetsService({ accounts, publisher, store, clock: { now: () => new Date() } }),
    close: () => {
      accounts.close();
      publisher.close();
    },
  };
}
