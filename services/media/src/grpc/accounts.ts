import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { createClient } from '@spa/grpc';
import type { AccountsPort } from '../domain/ports.js';

/** Connected accounts, asked of the accounts service. */
export function accountsPort(address: string): AccountsPort & { close(): void } {
  const client = createClient(AccountsServiceClient, address);
  return {
    async hasConnectedAccount(workspaceId, platform) {
      const { socialAccounts } = await client.listSocialAccounts({ workspaceId, ids: [] });
      return socialAccounts.some((a) => a.platform === platform && !a.disconnected);
    },
    close: () => client.close(),
  };
}
