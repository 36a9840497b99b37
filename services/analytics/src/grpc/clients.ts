import { platformCodec, platformStatusCodec } from '@spa/contracts/codecs';
import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import { createClient } from '@spa/grpc';
import type { Platform } from '@spa/vocabulary';
import type { AccountsPort, LinkSettingsPort, PostsPort } from '../domain/ports.js';

const ZONE_TTL_MS = 60_000;

/** Answers kept per workspace for `ttlMs` (at most 10,000 workspaces; then the cache starts over). */
function perWorkspaceCache<T>(ttlMs: number, load: (workspaceId: number) => Promise<T>): (workspaceId: number) => Promise<T> {
  const entries = new Map<number, { value: T; until: number }>();
  return async (workspaceId) => {
    const hit = entries.get(workspaceId);
    if (hit && hit.until > Date.now()) return hit.value;
    const value = await load(workspaceId);
    if (entries.size > 10_000) entries.clear();
    entries.set(workspaceId, { value, until: Date.now() + ttlMs });
    return value;
  };
}

/**
 * The accounts service over gRPC. The workspace's zone is kept a minute (it is read for every result); its link
 * shortening (with the decrypted Dub key) `linkSettingsTtlMs`, so a change of the preference applies within that.
 */
export function accountsPort(address: string, linkSettingsTtlMs = 30_000): AccountsPort & LinkSettingsPort & { close(): void } {
  const client = createClient(AccountsServiceClient, address);
  return {
    timezone: perWorkspaceCache(ZONE_TTL_MS, async (workspaceId) => (await client.getSubscription({ workspaceId })).timezone || 'UTC'),
    linkShortening: perWorkspaceCache(linkSettingsTtlMs, async (workspaceId) => {
      const { enabled, dubApiKey } = await client.getLinkShortening({ workspaceId });
      return { enabled, dubApiKey };
    }),
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
        .map((a) => ({
          postAccountId: a.id,
          socialAccountId: a.socialAccountId,
          platform: platformCodec.require(a.platformKind, a.platform),
          platformPostId: a.platformPostId!,
          postedAt,
          shortened: !!a.dubShortUrl,
        }));
    },
    close: () => client.close(),
  };
}
