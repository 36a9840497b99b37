import { platformCodec, platformStatusCodec } from '@spa/contracts/codecs';
import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import { createClient } from '@spa/grpc';
import type { Platform } from '@spa/vocabulary';
import type { AccountsPort, PostsPort } from '../domain/ports.js';

const ZONE_TTL_MS = 60_000;

/** The accounts service over gRPC; the workspace's zone is kept a minute (it is read for every result). */
export function accountsPort(address: string): AccountsPort & { close(): void } {
  const client = createClient(AccountsServiceClient, address);
  const zones = new Map<number, { zone: string; until: number }>();
  return {
    async timezone(workspaceId) {
      const hit = zones.get(workspaceId);
      if (hit && hit.until > Date.now()) return hit.zone;
      const { timezone } = await client.getSubscription({ workspaceId });
      const zone = timezone || 'UTC';
      if (zones.size > 10_000) zones.clear();
      zones.set(workspaceId, { zone, until: Date.now() + ZONE_TTL_MS });
      return zone;
    },
    async socialAccounts(workspaceId) {
      const { socialAccounts } = await client.listSocialAccounts({ workspaceId, ids: [] });
      return socialAccounts.map((a) => ({ id: a.id, platform: a.platform as Platform }));
    },
    close: () => client.close(),
  };
}

/** The posts service over gRPC: the targets a post published (platform status posted). */
export function postsPort(address: string): PostsPort & { close(): void } {
  const client = createClient(PostsServiceClient, address);
  return {
    async postedTargets(workspaceId, postId) {
      const { post } = await client.getPost({ workspaceId, postId }).catch((err: unknown) => {
        if ((err as { code?: string }).code === 'NOT_FOUND') return { post: undefined };
        throw err;
      });
      if (!post || post.dryRun) return [];
      const postedAt = new Date(post.postedAt ?? post.createdAt);
      return post.postAccounts
        .filter((a) => platformStatusCodec.decode(a.state, a.platformStatus) === 'posted' && a.platformPostId)
        .map((a) => ({ postAccountId: a.id, socialAccountId: a.socialAccountId, platform: platformCodec.require(a.platformKind, a.platform), platformPostId: a.platformPostId!, postedAt }));
    },
    close: () => client.close(),
  };
}
