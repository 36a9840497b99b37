import { createHash } from 'node:crypto';
import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { createClient } from '@spa/grpc';
import type { RefreshCredentials } from '../connectors/refresh-on-401.js';

/** The accounts service's RefreshSocialAccount (waits up to 10 s there for a refresh another replica runs). */
export function refreshPort(address: string): { refresh: RefreshCredentials; close(): void } {
  const client = createClient(AccountsServiceClient, address, { deadlineMs: 20_000 });
  return {
    refresh: async (socialAccountId, refusedAccessToken) => {
      // Only a digest of the refused token travels: accounts compares it with the stored one.
      const r = await client.refreshSocialAccount({ socialAccountId, refusedTokenSha256: createHash('sha256').update(refusedAccessToken).digest('hex') });
      return { credentials: r.account?.credentials, disconnected: r.disconnected, reason: r.reason };
    },
    close: () => client.close(),
  };
}
