import type { Post as PostMessage } from '@spa/contracts/posts/v1/posts';
import { POST_STATUSES } from '@spa/vocabulary';
import { z } from 'zod';
import { route } from './route.js';
import { CreatePostBodySchema, ListMetaSchema, ListPostsQuerySchema, PostSchema, idParam } from './schemas.js';

const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

/** A post as the public JSON shows it: snake_case, every field present, null where unset. */
export function presentPost(p: PostMessage): z.infer<typeof PostSchema> {
  return {
    id: p.id,
    status: p.status as z.infer<typeof PostSchema>['status'],
    flexible: p.flexible,
    scheduled_at: orNull(p.scheduledAt),
    posted_at: orNull(p.postedAt),
    failed_at: orNull(p.failedAt),
    post_error: orNull(p.postError),
    disconnected: p.disconnected,
    source: p.source,
    recurrence_jitter_enabled: p.recurrenceJitterEnabled,
    evergreen: p.evergreen,
    evergreen_variations: p.evergreenVariations,
    recycled_from_id: orNull(p.recycledFromId),
    reviewed_at: orNull(p.reviewedAt),
    review_action: orNull(p.reviewAction),
    rejection_reason: orNull(p.rejectionReason),
    created_at: p.createdAt,
    body: p.body,
    post_contents: p.postContents.map((c) => ({
      id: c.id,
      platform: c.platform as never,
      body: c.body,
      content_type: c.contentType as never,
      position: c.position,
      first_comment: orNull(c.firstComment),
      metadata: c.metadataJson ? (JSON.parse(c.metadataJson) as Record<string, unknown>) : {},
    })),
    post_accounts: p.postAccounts.map((a) => ({
      id: a.id,
      social_account_id: a.socialAccountId,
      platform: a.platform as never,
      username: a.username,
      platform_status: orNull(a.platformStatus),
      platform_post_id: orNull(a.platformPostId),
      permalink: orNull(a.permalink),
      platform_error: orNull(a.platformError),
      dub_short_url: orNull(a.dubShortUrl),
      dub_original_url: orNull(a.dubOriginalUrl),
      post_metric: a.postMetric
        ? {
            impressions: a.postMetric.impressions,
            likes: a.postMetric.likes,
            replies: a.postMetric.replies,
            reposts: a.postMetric.reposts,
            clicks: a.postMetric.clicks,
            engagement_rate: a.postMetric.engagementRate,
            fetched_at: a.postMetric.fetchedAt,
          }
        : null,
    })),
    dry_run: p.dryRun,
  };
}

const PostIdParams = z.object({ id: idParam });
const PostEnvelope = z.object({ post: PostSchema });

export const postRoutes = [
  route({
    method: 'get',
    path: '/posts',
    tag: 'Posts',
    summary: 'List posts',
    description: 'Without `status`, returns the queue statuses (draft, pending_review, scheduled, publishing). `counts` covers every status under the other filters. Page with `offset` until offset + limit >= meta.total_count.',
    audience: 'api_key',
    scope: 'posts:read',
    plan: 'paid',
    query: ListPostsQuerySchema,
    status: 200,
    response: z.object({
      posts: z.array(PostSchema),
      counts: z.record(z.enum(POST_STATUSES), z.number().int()),
      meta: ListMetaSchema,
    }),
    handle: async ({ clients, principal, query }) => {
      const reply = await clients.posts.listPosts({
        workspaceId: principal.workspaceId,
        statuses: query.status ?? [],
        source: query.source,
        scheduledAfter: query.scheduled_after,
        scheduledBefore: query.scheduled_before,
        platform: query.platform,
        sort: query.sort,
        sortDirection: query.sort_direction,
        limit: query.limit,
        offset: query.offset,
      });
      const counts = Object.fromEntries(POST_STATUSES.map((s) => [s, 0]));
      for (const c of reply.counts) counts[c.status] = c.count;
      return {
        posts: reply.posts.map(presentPost),
        counts,
        meta: { limit: reply.limit, offset: reply.offset, total_count: reply.totalCount },
      };
    },
  }),
  route({
    method: 'post',
    path: '/posts',
    tag: 'Posts',
    summary: 'Create a post',
    description: 'Creates a draft, or a scheduled post with per-platform contents and target accounts. In a workspace that requires review the post starts in pending_review. Unknown fields are rejected.',
    audience: 'api_key',
    scope: 'posts:write',
    plan: 'paid',
    body: CreatePostBodySchema,
    status: 201,
    response: PostEnvelope,
    handle: async ({ clients, principal, body }) => {
      const p = body.post;
      const { post } = await clients.posts.createPost({
        workspaceId: principal.workspaceId,
        body: p.body,
        status: p.status ?? '',
        scheduledAt: p.scheduled_at,
        flexible: p.flexible ?? false,
        recurrenceJitterEnabled: p.recurrence_jitter_enabled ?? false,
        evergreen: p.evergreen ?? false,
        evergreenVariations: p.evergreen_variations ?? [],
        dryRun: p.dry_run ?? false,
        postContents: p.post_contents.map((c) => ({
          platform: c.platform,
          body: c.body,
          contentType: c.content_type,
          position: c.position,
          firstComment: c.first_comment,
          metadataJson: JSON.stringify(c.metadata ?? {}),
        })),
        socialAccountIds: p.post_accounts.map((a) => a.social_account_id),
        source: 'api',
      });
      return { post: presentPost(post!) };
    },
  }),
  route({
    method: 'get',
    path: '/posts/{id}',
    tag: 'Posts',
    summary: 'Get a post',
    audience: 'api_key',
    scope: 'posts:read',
    plan: 'paid',
    params: PostIdParams,
    status: 200,
    response: PostEnvelope,
    handle: async ({ clients, principal, params }) => {
      const { post } = await clients.posts.getPost({ workspaceId: principal.workspaceId, postId: params.id });
      return { post: presentPost(post!) };
    },
  }),
  route({
    method: 'post',
    path: '/posts/{id}/approve',
    tag: 'Posts',
    summary: 'Approve a post awaiting review',
    description: 'Only a pending_review post (else 422 INVALID_STATE). It becomes scheduled when it has scheduled_at, otherwise a draft; reviewed_at and review_action are set.',
    audience: 'api_key',
    scope: 'posts:write',
    plan: 'pro_team',
    params: PostIdParams,
    status: 200,
    response: PostEnvelope,
    handle: async ({ clients, principal, params }) => {
      const { post } = await clients.posts.approvePost({ workspaceId: principal.workspaceId, postId: params.id });
      return { post: presentPost(post!) };
    },
  }),
];
