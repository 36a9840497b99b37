import { createPostRequest, listPostsRequest } from '@spa/contracts/codecs';
import type { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import type { PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import type { PromiseClient } from '@spa/grpc';
import { POST_STATUSES, type Platform } from '@spa/vocabulary';
import type { AccountsPort, PostsPort } from '../../domain/plans/ports.js';

/** The source plan runs give their posts (GET /posts?source=content_plan lists them). */
export const PLAN_POST_SOURCE = 'content_plan';
/** How many of the account's newest plan posts recovery looks through for an interrupted creation. */
const RECOVERY_WINDOW = 200;

export function accountsPort(accounts: PromiseClient<AccountsServiceClient>): AccountsPort {
  return {
    socialAccounts: async (workspaceId, ids) => {
      const { socialAccounts } = await accounts.listSocialAccounts({ workspaceId, ids });
      return socialAccounts.map((a) => ({ id: a.id, platform: a.platform as Platform, disconnected: a.disconnected }));
    },
    timezone: async (workspaceId) => (await accounts.getSubscription({ workspaceId })).timezone || 'UTC',
  };
}

export function postsPort(posts: PromiseClient<PostsServiceClient>): PostsPort {
  return {
    createPost: async (p) => {
      const { post } = await posts.createPost(
        createPostRequest({
          workspaceId: p.workspaceId,
          body: p.body,
          status: p.scheduledAt ? 'scheduled' : 'draft',
          scheduledAt: p.scheduledAt?.toISOString(),
          socialAccountIds: [p.socialAccountId],
          source: PLAN_POST_SOURCE,
        }),
      );
      return post!.id;
    },
    nextSlot: async (workspaceId, socialAccountId) => {
      const slot = await posts.getNextSlot({ workspaceId, socialAccountId });
      return slot.scheduledAt ? new Date(slot.scheduledAt) : null;
    },
    findPlanPost: async (workspaceId, platform, socialAccountId, body, since) => {
      const { posts: found } = await posts.listPosts(
        listPostsRequest({ workspaceId, statuses: POST_STATUSES, source: PLAN_POST_SOURCE, platform, sort: 'created_at', direction: 'desc', limit: RECOVERY_WINDOW, offset: 0 }),
      );
      const match = found.find((p) => p.body === body && new Date(p.createdAt) >= since && p.postAccounts.some((a) => a.socialAccountId === socialAccountId));
      return match ? match.id : null;
    },
  };
}
