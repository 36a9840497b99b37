import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { createClient } from '@spa/grpc';
import type { AccountsPort } from '../domain/ports.js';
import type { AccountsPort as LinkedInAccountsPort } from '../linkedin/domain/ports.js';

/** Social accounts, asked of the accounts service: one client serves the uploads and the LinkedIn assets. */
export function accountsPort(address: string): AccountsPort & LinkedInAccountsPort & { close(): void } {
  const client = createClient(AccountsServiceClient, address);
  const list = async (workspaceId: number, ids: number[] = []) => {
    const { socialAccounts } = await client.listSocialAccounts({ workspaceId, ids });
    return socialAccounts.map((a) => ({ id: a.id, platform: a.platform, disconnected: a.disconnected }));
  };
  return {
    list,
    async hasConnectedAccount(workspaceId, platform) {
      return (await list(workspaceId)).some((a) => a.platform === platform && !a.disconnected);
    },
    close: () => client.close(),
  };
}
