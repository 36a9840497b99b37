import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { createClient } from '@spa/grpc';
import type { Platform } from '@spa/vocabulary';
import type { AccountsPort } from '../domain/ports.js';

/** The accounts service as the posts domain sees it, over gRPC. */
export function accountsPort(address: string): AccountsPort & { close(): void } {
  const client = createClient(AccountsServiceClient, address);
  return {
    async workspaceSettings(workspaceId) {
      const { workspace } = await client.getWorkspace({ workspaceId });
      return { reviewRequired: workspace?.reviewRequired ?? false };
    },
    async socialAccounts(workspaceId, ids) {
      const { socialAccounts } = await client.listSocialAccounts({ workspaceId, ids });
      return socialAccounts.map((a) => ({ id: a.id, platform: a.platform as Platform, username: a.username, disconnected: a.disconnected }));
    },
    close: () => client.close(),
  };
}
