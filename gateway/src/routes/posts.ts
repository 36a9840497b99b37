import { contentTypeCodec, createPostRequest, listPostsRequest, newPostContent, platformCodec, platformStatusCodec, postStatusCodec, type NewContent } from '@spa/contracts/codecs';
import { countsFromWire } from '@spa/contracts/metric-counts';
import type { Post as PostMessage } from '@spa/contracts/posts/v1/posts';
import { POST_STATUSES } from '@spa/vocabulary';
import { z } from 'zod';
import { Answer, route } from './route.js';
import type { CreatePostRequest } from '@spa/contracts/posts/v1/posts';
import { BulkCreatePostsBodySchema, CreatePostBodySchema, ListMetaSchema, ListPostsQuerySchema, PostFieldsSchema, PostSchema, RejectPostBodySchema, UpdatePostBodySchema, idParam } from './schemas.js';

const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

/** A post as the public JSON shows it: snake_case, every field present, null where unset. */
export function presentPost(p: PostMessage): z.infer<typeof PostSchema> {
  return {
    id: p.id,
    status: postStatusCodec.require(p.state, p.status),
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
    recurrence_interval_days: p.recurrenceIntervalDays,
    reviewed_at: orNull(p.reviewedAt),
    review_action: orNull(p.reviewAction),
    rejection_reason: orNull(p.rejectionReason),
    created_at: p.createdAt,
    body: p.body,
    post_contents: p.postContents.map((c) => ({
      id: c.id,
      platform: platformCodec.require(c.platformKind, c.platform),
      body: c.body,
      content_type: contentTypeCodec.require(c.contentKind, c.contentType),
      position: c.position,
      first_comment: orNull(c.firstComment),
      metadata: c.metadata ?? (c.metadataJson ? (JSON.parse(c.metadataJson) as Record<string, unknown>) : {}),
    })),
    post_accounts: p.postAccounts.map((a) => ({
      id: a.id,
      social_account_id: a.socialAccountId,
      platform: platformCodec.require(a.platformKind, a.platform),
      username: a.username,
      platform_status: orNull(platformStatusCodec.decode(a.state, a.platformStatus)),
      platform_post_id: orNull(a.platformPostId),
      permalink: orNull(a.permalink),
      platform_error: orNull(a.platformError),
      dub_short_url: orNull(a.dubShortUrl),
      dub_original_url: orNull(a.dubOriginalUrl),
      post_metric: a.postMetric
        ? {
            ...countsFromWire(a.postMetric),
            engagement_rate: a.postMetric.engagementRate ?? null,
            fetched_at: a.postMetric.fetchedAt,
          }
        : null,
    })),
    dry_run: p.dryRun,
  };
}

const PostIdParams = z.object({ id: idParam });

/** One validated post of a create or bulk create as the posts service takes it. */
function createRequest(workspaceId: number, p: z.infer<typeof PostFieldsSchema>): CreatePostRequest {
  return createPostRequest({
    workspaceId,
    body: p.body,
    status: p.status,
    scheduledAt: p.scheduled_at,
    flexible: p.flexible,
    recurrenceJitterEnabled: p.recurrence_jitter_enabled,
    evergreen: p.evergreen,
    evergreenVariations: p.evergreen_variations,
    recurrenceIntervalDays: p.recurrence_interval_days,
    dryRun: p.dry_run,
    contents: p.post_contents.map(newContent),
    socialAccountIds: p.post_accounts.map((a) => a.social_account_id),
    source: 'api',
  });
}

const newContent = (c: NonNullable<z.infer<typeof PostFieldsSchema>['post_contents']>[number]): NewContent => ({
  platform: c.platform,
  body: c.body,
  contentType: c.content_type,
  position: c.position,
  firstComment: c.first_comment,
  metadata: c.metadata,
});
const PostEnvelope = z.object({ post: PostSchema });

/** Which transitions need a reviewer, in a workspace that requires review (the posts service's approval rule). */
const REVIEW_RULE =
  'Review (a workspace that requires it): a post is created, and goes back after any edit, as pending_review; only approve takes it on (to scheduled, or draft without scheduled_at). ' +
  'A rejected post (back to draft) needs approval again: edit it to send it to review. POST /posts/{post_id}/publishes, now or into the next slot, takes only an approved post: a rejected or never-approved one is 422 INVALID_STATE.';

export const postRoutes = [
  route({
    method: 'get',
    path: '/posts',
    tag: 'Posts',
    summary: 'List posts',
    description:
      "Without `status`, returns the queue statuses (draft, pending_review, scheduled, publishing). `counts` covers every status under the other filters. Page with `offset` until offset + limit >= meta.total_count. Every write answered before the request is reflected: answers are kept (per workspace and URL) only while the workspace's posts are unchanged.",
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
    cachedUntilPostsChange: true,
    handle: async ({ clients, principal, query }) => {
      const reply = await clients.posts.listPosts(
        listPostsRequest({
          workspaceId: principal.workspaceId,
          statuses: query.status,
          source: query.source,
          scheduledAfter: query.scheduled_after,
          scheduledBefore: query.scheduled_before,
          platform: query.platform,
          sort: query.sort,
          direction: query.sort_direction,
          limit: query.limit,
          offset: query.offset,
        }),
      );
      const counts = Object.fromEntries(POST_STATUSES.map((s) => [s, 0]));
      Object.assign(counts, reply.statusCounts);
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
    description:
      'Creates a draft, or a scheduled post with per-platform contents and target accounts. In a workspace that requires review the post starts in pending_review. Unknown fields are rejected.',
    audience: 'api_key',
    scope: 'posts:write',
    plan: 'paid',
    body: CreatePostBodySchema,
    errors: ['TIER_UPGRADE_REQUIRED'],
    status: 201,
    response: PostEnvelope,
    handle: async ({ clients, principal, body }) => {
      const { post } = await clients.posts.createPost(createRequest(principal.workspaceId, body.post));
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
    description:
      'Only a pending_review post (else 422 INVALID_STATE). It becomes scheduled when it has scheduled_at, otherwise a draft; reviewed_at and review_action are set. ' +
      'A post approved after its scheduled_at has passed is handed to the publisher at once and answered as it stands then (usually `publishing`). ' +
      REVIEW_RULE,
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
  route({
    method: 'post',
    path: '/posts/{post_id}/publishes',
    tag: 'Publishing',
    summary: 'Publish a post now, or schedule it into the next free slot',
    description:
      '`{}` publishes now: the post goes to the publisher at once and the answer is 202 with the post in `publishing` (poll it, or receive the webhook, for the outcome: posted, failed or partial). `{"to_next_slot": true}` schedules it into the next free slot of its first target account: 200 with the post `scheduled`. Only a draft or scheduled post with at least one target (else 422 INVALID_STATE / INVALID_PARAMETERS). The next free slot is looked for within the plan\'s max_schedule_days (and at most 60 days): none there is 422 INVALID_STATE. ' +
      REVIEW_RULE,
    audience: 'api_key',
    scope: 'publish:write',
    plan: 'paid',
    bucket: 'publishes',
    params: z.object({ post_id: idParam }),
    body: z.object({ to_next_slot: z.boolean().optional() }).strict().default({}),
    status: 202,
    response: PostEnvelope,
    handle: async ({ clients, principal, params, body }) => {
      const toNextSlot = body.to_next_slot ?? false;
      const { post } = await clients.posts.publishPost({ workspaceId: principal.workspaceId, postId: params.post_id, toNextSlot });
      const answer = { post: presentPost(post!) };
      return toNextSlot ? new Answer(200, answer) : answer;
    },
  }),
  route({
    method: 'post',
    path: '/posts/bulk',
    tag: 'Posts',
    summary: 'Create up to 100 posts at once',
    description: 'Validated as a whole: when any post is invalid nothing is stored, and each detail names its item (`posts[3]: …`).',
    audience: 'api_key',
    scope: 'posts:write',
    plan: 'paid',
    body: BulkCreatePostsBodySchema,
    errors: ['TIER_UPGRADE_REQUIRED'],
    bodyLimit: '10mb',
    status: 201,
    response: z.object({ posts: z.array(PostSchema) }),
    handle: async ({ clients, principal, body }) => {
      const { posts } = await clients.posts.bulkCreatePosts({
        workspaceId: principal.workspaceId,
        posts: body.posts.map((p) => createRequest(principal.workspaceId, p)),
      });
      return { posts: posts.map(presentPost) };
    },
  }),
  route({
    method: 'patch',
    path: '/posts/{id}',
    tag: 'Posts',
    summary: 'Update a post',
    description:
      'Only a draft, pending_review or scheduled post (else 422 INVALID_STATE), except that a posted, failed or partial post accepts a patch of only evergreen, evergreen_variations, recurrence_interval_days and recurrence_jitter_enabled (turning evergreen off stops its recycling). Absent fields keep their value; post_contents and post_accounts, when given, replace the lists. The result is validated like a new post. In a workspace that requires review the post returns to pending_review.',
    audience: 'api_key',
    scope: 'posts:write',
    plan: 'paid',
    params: PostIdParams,
    body: UpdatePostBodySchema,
    errors: ['TIER_UPGRADE_REQUIRED'],
    status: 200,
    response: PostEnvelope,
    handle: async ({ clients, principal, params, body }) => {
      const p = body.post;
      const { post } = await clients.posts.updatePost({
        workspaceId: principal.workspaceId,
        postId: params.id,
        body: p.body,
        state: p.status ? postStatusCodec.toProto(p.status) : 0,
        scheduledAt: p.scheduled_at ?? undefined,
        clearScheduledAt: p.scheduled_at === null,
        flexible: p.flexible,
        recurrenceJitterEnabled: p.recurrence_jitter_enabled,
        evergreen: p.evergreen,
        hasEvergreenVariations: p.evergreen_variations !== undefined,
        evergreenVariations: p.evergreen_variations ?? [],
        recurrenceIntervalDays: p.recurrence_interval_days,
        dryRun: p.dry_run,
        hasPostContents: p.post_contents !== undefined,
        postContents: (p.post_contents ?? []).map((c) => newPostContent(newContent(c))),
        hasSocialAccountIds: p.post_accounts !== undefined,
        socialAccountIds: (p.post_accounts ?? []).map((a) => a.social_account_id),
      });
      return { post: presentPost(post!) };
    },
  }),
  route({
    method: 'delete',
    path: '/posts/{id}',
    tag: 'Posts',
    summary: 'Delete a post',
    description: 'Any post not being published (publishing: 422 INVALID_STATE). Answers the post as it was.',
    audience: 'api_key',
    scope: 'posts:write',
    plan: 'paid',
    params: PostIdParams,
    status: 200,
    response: PostEnvelope,
    handle: async ({ clients, principal, params }) => {
      const { post } = await clients.posts.deletePost({ workspaceId: principal.workspaceId, postId: params.id });
      return { post: presentPost(post!) };
    },
  }),
  route({
    method: 'post',
    path: '/posts/{id}/reject',
    tag: 'Posts',
    summary: 'Reject a post awaiting review',
    description: `Only a pending_review post (else 422 INVALID_STATE). It returns to draft with review_action "rejected", reviewed_at and rejection_reason set. ${REVIEW_RULE}`,
    audience: 'api_key',
    scope: 'posts:write',
    plan: 'pro_team',
    params: PostIdParams,
    body: RejectPostBodySchema,
    status: 200,
    response: PostEnvelope,
    handle: async ({ clients, principal, params, body }) => {
      const { post } = await clients.posts.rejectPost({ workspaceId: principal.workspaceId, postId: params.id, rejectionReason: body.rejection_reason });
      return { post: presentPost(post!) };
    },
  }),
];
