import { createPostRequest, listPostsRequest } from '@spa/contracts/codecs';
import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { GenerationServiceClient } from '@spa/contracts/generation/v1/generation';
import { SettingsServiceClient } from '@spa/contracts/generation/v1/settings';
import { MediaServiceClient } from '@spa/contracts/media/v1/media';
import { PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import { AppError } from '@spa/errors';
import { createClient } from '@spa/grpc';
import type { AccountsPort, MediaPort, PostsPort, QuotesPort } from '../domain/ports.js';
import { ITEM_MARKER, quotePostContent } from '../domain/quote-post.js';

/** The other services as the Quote Week domain sees them, over gRPC. */

export function accountsPort(address: string, deadlineMs: number): AccountsPort & { close(): void } {
  const client = createClient(AccountsServiceClient, address, { deadlineMs });
  return {
    async socialAccounts(workspaceId, ids) {
      const { socialAccounts } = await client.listSocialAccounts({ workspaceId, ids });
      return socialAccounts.map((a) => ({ id: a.id, platform: a.platform, username: a.username, disconnected: a.disconnected }));
    },
    async postingSchedule(workspaceId, socialAccountId) {
      try {
        const { postingSchedule: s } = await client.getPostingSchedule({ workspaceId, socialAccountId });
        if (!s) return undefined;
        return {
          timezone: s.timezone,
          max_posts_per_day: s.maxPostsPerDay,
          paused: s.paused,
          posting_slots: s.postingSlots.map((p) => ({ id: p.id, day_of_week: p.dayOfWeek, time_of_day: p.timeOfDay, enabled: p.enabled, source: p.source })),
        };
      } catch (err) {
        if (err instanceof AppError && err.code === 'NOT_FOUND') return undefined;
        throw err;
      }
    },
    async plan(workspaceId) {
      const { subscription, timezone } = await client.getSubscription({ workspaceId });
      return { tier: subscription?.tier ?? 'free', timezone: timezone || 'UTC' };
    },
    close: () => client.close(),
  };
}

export function postsPort(address: string, deadlineMs: number): PostsPort & { close(): void } {
  const client = createClient(PostsServiceClient, address, { deadlineMs });
  return {
    async scheduledTimes(workspaceId, socialAccountId, from, to) {
      const out: Date[] = [];
      for (let offset = 0; ; offset += 200) {
        const { posts, totalCount } = await client.listPosts(
          listPostsRequest({
            workspaceId,
            statuses: ['scheduled', 'publishing', 'pending_review'],
            scheduledAfter: from.toISOString(),
            scheduledBefore: to.toISOString(),
            sort: 'scheduled_at',
            direction: 'asc',
            limit: 200,
            offset,
          }),
        );
        for (const p of posts) if (p.scheduledAt && p.postAccounts.some((a) => a.socialAccountId === socialAccountId)) out.push(new Date(p.scheduledAt));
        if (posts.length === 0 || offset + posts.length >= totalCount) break;
      }
      return out;
    },
    async createPost(input) {
      const { post } = await client.createPost(
        createPostRequest({
          workspaceId: input.workspaceId,
          body: input.caption,
          status: input.scheduledAt ? 'scheduled' : 'draft',
          scheduledAt: input.scheduledAt?.toISOString(),
          contents: [quotePostContent(input)],
          socialAccountIds: [input.socialAccountId],
          source: 'quote_week',
        }),
      );
      return post!.id;
    },
    async findItemPost(workspaceId, itemId) {
      for (let offset = 0; ; offset += 200) {
        const { posts, totalCount } = await client.listPosts(listPostsRequest({ workspaceId, source: 'quote_week', sort: 'created_at', direction: 'desc', limit: 200, offset }));
        const hit = posts.find((p) => p.postContents.some((c) => c.metadata?.[ITEM_MARKER] === itemId));
        if (hit) return hit.id;
        if (posts.length === 0 || offset + posts.length >= totalCount) return undefined;
      }
    },
    close: () => client.close(),
  };
}

export function mediaPort(address: string, deadlineMs: number): MediaPort & { close(): void } {
  const client = createClient(MediaServiceClient, address, { deadlineMs });
  return {
    async storePng(workspaceId, png) {
      const stored = await client.storeObject({ workspaceId, contentType: 'image/png', data: png, purpose: 'quote_card' });
      return { url: stored.url, r2Key: stored.r2Key };
    },
    close: () => client.close(),
  };
}

/**
 * Quotes from the generation service's GenerateBatch (the workspace's voice, preferences, custom rules and
 * near-duplicate checks; each text counts one daily generation). Texts are written for Bluesky, whose short limit
 * (300) gives quote-length texts; image-week turns each into a card quote.
 */
export function quotesPort(address: string, deadlineMs: number): QuotesPort & { close(): void } {
  const generation = createClient(GenerationServiceClient, address, { deadlineMs });
  const settings = createClient(SettingsServiceClient, address, { deadlineMs: 5_000 });
  return {
    async remaining(workspaceId) {
      const { quota } = await settings.getBillingSummary({ workspaceId });
      return quota?.remainingToday ?? 0;
    },
    async write(workspaceId, topic, count, batchKey) {
      const { posts } = await generation.generateBatch({ workspaceId, category: topic, count, platform: 'bluesky', idempotencyKey: batchKey });
      return posts;
    },
    close: () => (generation.close(), settings.close()),
  };
}
