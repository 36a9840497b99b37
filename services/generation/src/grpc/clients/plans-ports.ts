import { createPostRequest, listPostsRequest, type NewContent } from '@spa/contracts/codecs';
import type { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import type { ImageWeekServiceClient } from '@spa/contracts/image_week/v1/image_week';
import type { PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import type { PromiseClient } from '@spa/grpc';
import { POST_STATUSES, type Platform } from '@spa/vocabulary';
import type { AccountsPort, NewPlanPost, PostsPort, QuoteWeekPort } from '../../domain/plans/ports.js';

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

/**
 * The post's content, when it needs one besides the body: the channel's choices in its metadata (where the publisher
 * reads them), and a carousel as a LinkedIn document post, as POST /posts/generate_carousel documents it: the caption
 * as the body and the PDF (one page per slide) in `metadata.media` by r2_key, uploaded as a LinkedIn document at
 * publish time.
 */
function planContents(p: NewPlanPost): NewContent[] {
  if (p.carousel) {
    return [{ platform: 'linkedin', body: p.body, contentType: 'document', metadata: { media: [{ r2_key: p.carousel.r2Key, type: 'document' }], ...p.options } }];
  }
  return Object.keys(p.options).length ? [{ platform: p.platform, body: p.body, metadata: { ...p.options } }] : [];
}

/** Quote Week runs through the image-week service; the idempotency key makes a repeated start answer the same run. */
export function quoteWeekPort(imageWeek: PromiseClient<ImageWeekServiceClient>): QuoteWeekPort {
  return {
    startRun: async (r) => {
      const target = r.platform === 'pinterest' ? { social_account_id: r.socialAccountId, board_id: r.boardId, link: r.link } : { social_account_id: r.socialAccountId };
      const { imageWeekRun } = await imageWeek.createRun({
        workspaceId: r.workspaceId,
        topic: r.topic,
        platformConfigJson: JSON.stringify({ [r.platform]: target }),
        // Image-week's default: a week of cards, the plan's own weekly rhythm.
        cutoffDays: 0,
        scheduleMode: r.scheduleMode,
        watermarkEnabled: r.watermarkEnabled,
        watermarkText: r.watermarkText,
        watermarkEveryN: r.watermarkEveryN,
        dryRun: r.dryRun,
        contentPlanId: r.contentPlanId,
        idempotencyKey: r.idempotencyKey,
      });
      return imageWeekRun!.id;
    },
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
          dryRun: p.dryRun,
          contents: planContents(p),
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
