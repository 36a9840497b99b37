import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { notFound } from '@spa/errors';
import { createClient } from '@spa/grpc';
import { MAX_SCHEDULE_DAYS, type Platform, type Tier } from '@spa/vocabulary';
import type { AccountsPort } from '../domain/ports.js';

/** The accounts service as the posts domain sees it, over gRPC. */
export function accountsPort(address: string): AccountsPort & { close(): void } {
  const client = createClient(AccountsServiceClient, address);
  return {
    async workspaceSettings(workspaceId) {
      const { workspace } = await client.getWorkspace({ workspaceId });
      const tier = workspace?.tier as Tier | undefined;
      return { reviewRequired: workspace?.reviewRequired ?? false, tier, maxScheduleDays: tier ? MAX_SCHEDULE_DAYS[tier] : undefined };
    },
    async socialAccounts(workspaceId, ids) {
      const { socialAccounts } = await client.listSocialAccounts({ workspaceId, ids });
      return socialAccounts.map((a) => ({ id: a.id, platform: a.platform as Platform, username: a.username, disconnected: a.disconnected }));
    },
    async postingSchedule(workspaceId, socialAccountId) {
      const { postingSchedule: s } = await client.getPostingSchedule({ workspaceId, socialAccountId });
      if (!s) throw notFound(`Posting schedule of social account ${socialAccountId}`);
      return { id: s.id, socialAccountId: s.socialAccountId, timezone: s.timezone, maxPostsPerDay: s.maxPostsPerDay, paused: s.paused, postingSlots: s.postingSlots };
    },
    close: () => client.close(),
  };
}
