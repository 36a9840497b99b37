import { PostsServiceService, type CreatePostRequest, type NewPostContent as NewPostContentMessage, type Post as PostMessage } from '@spa/contracts/posts/v1/posts';
import { invalidParameters } from '@spa/errors';
import { bindService, type ServiceBinding } from '@spa/grpc';
import { CONTENT_TYPES, PLATFORMS, POST_STATUSES, QUEUE_STATUSES, type ContentType, type Platform } from '@spa/vocabulary';
import { bulkCreatePosts } from '../domain/bulk-create-posts.js';
import { createPost, type NewPost, type NewPostContent } from '../domain/create-post.js';
import { nextFreeSlot } from '../domain/next-slot.js';
import { publishPost, recordPublishResults } from '../domain/publishing.js';
import { approvePost, rejectPost } from '../domain/review-post.js';
import { deletePost } from '../domain/delete-post.js';
import { updatePost, type PostPatch } from '../domain/update-post.js';
import type { Post } from '../domain/model.js';
import type { ListPostsQuery, PostsDeps } from '../domain/ports.js';
import { getPost, listPosts } from '../domain/read-posts.js';

const iso = (d: Date | undefined): string | undefined => d?.toISOString();

export function postMessage(p: Post): PostMessage {
  return {
    id: p.id,
    status: p.status,
    flexible: p.flexible,
    scheduledAt: iso(p.scheduledAt),
    postedAt: iso(p.postedAt),
    failedAt: iso(p.failedAt),
    postError: p.postError,
    disconnected: p.disconnected,
    source: p.source,
    recurrenceJitterEnabled: p.recurrenceJitterEnabled,
    evergreen: p.evergreen,
    evergreenVariations: p.evergreenVariations,
    recycledFromId: p.recycledFromId,
    recurrenceIntervalDays: p.recurrenceIntervalDays,
    reviewedAt: iso(p.reviewedAt),
    reviewAction: p.reviewAction,
    rejectionReason: p.rejectionReason,
    createdAt: p.createdAt.toISOString(),
    body: p.body,
    dryRun: p.dryRun,
    postContents: p.postContents.map((c) => ({
      id: c.id,
      platform: c.platform,
      body: c.body,
      contentType: c.contentType,
      position: c.position,
      firstComment: c.firstComment,
      metadataJson: JSON.stringify(c.metadata),
    })),
    postAccounts: p.postAccounts.map((a) => ({
      id: a.id,
      socialAccountId: a.socialAccountId,
      platform: a.platform,
      username: a.username,
      platformStatus: a.platformStatus,
      platformPostId: a.platformPostId,
      permalink: a.permalink,
      platformError: a.platformError,
      dubShortUrl: a.dubShortUrl,
      dubOriginalUrl: a.dubOriginalUrl,
      postMetric: a.postMetric && { ...a.postMetric, engagementRate: a.postMetric.engagementRate ?? undefined, fetchedAt: a.postMetric.fetchedAt.toISOString() },
    })),
  };
}

/** Checks a value against a closed list, collecting a problem naming the field when it is not in it. */
function oneOf<T extends string>(list: readonly T[], value: string, field: string, problems: string[]): T {
  if (!(list as readonly string[]).includes(value)) problems.push(`${field} must be one of ${list.join(', ')} (got ${JSON.stringify(value)})`);
  return value as T;
}

function date(value: string | undefined, field: string, problems: string[]): Date | undefined {
  if (value === undefined) return undefined;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) problems.push(`${field} must be an ISO 8601 date-time`);
  return d;
}

function parseMetadata(json: string, field: string, problems: string[]): Record<string, unknown> {
  if (!json) return {};
  try {
    const value: unknown = JSON.parse(json);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    /* reported below */
  }
  problems.push(`${field} must be a JSON object`);
  return {};
}

function parseContents(contents: NewPostContentMessage[], problems: string[]): NewPostContent[] {
  return contents.map((c, i) => ({
    platform: oneOf<Platform>(PLATFORMS, c.platform, `post_contents[${i}].platform`, problems),
    body: c.body,
    contentType: c.contentType === undefined ? undefined : oneOf<ContentType>(CONTENT_TYPES, c.contentType, `post_contents[${i}].content_type`, problems),
    position: c.position,
    firstComment: c.firstComment,
    metadata: parseMetadata(c.metadataJson, `post_contents[${i}].metadata`, problems),
  }));
}

function parseNewPost(req: CreatePostRequest, workspaceId: number, problems: string[]): NewPost {
  return {
    workspaceId,
    body: req.body,
    status: req.status ? oneOf(['draft', 'scheduled'] as const, req.status, 'status', problems) : undefined,
    scheduledAt: date(req.scheduledAt, 'scheduled_at', problems),
    flexible: req.flexible,
    recurrenceJitterEnabled: req.recurrenceJitterEnabled,
    evergreen: req.evergreen,
    evergreenVariations: req.evergreenVariations,
    recurrenceIntervalDays: req.recurrenceIntervalDays,
    dryRun: req.dryRun,
    postContents: parseContents(req.postContents, problems),
    socialAccountIds: req.socialAccountIds,
    source: req.source || 'api',
  };
}

/** gRPC transport of the posts service. Requests are checked again here: gRPC callers are not only the gateway. */
export function postsService(deps: PostsDeps): ServiceBinding {
  return bindService('posts.v1.PostsService', PostsServiceService, {
    listPosts: async (req) => {
      const problems: string[] = [];
      const query: ListPostsQuery = {
        workspaceId: req.workspaceId,
        statuses: req.statuses.length ? req.statuses.map((s, i) => oneOf(POST_STATUSES, s, `status[${i}]`, problems)) : [...QUEUE_STATUSES],
        source: req.source,
        scheduledAfter: date(req.scheduledAfter, 'scheduled_after', problems),
        scheduledBefore: date(req.scheduledBefore, 'scheduled_before', problems),
        platform: req.platform === undefined ? undefined : oneOf<Platform>(PLATFORMS, req.platform, 'platform', problems),
        sort: oneOf(['scheduled_at', 'created_at', 'posted_at', 'id'] as const, req.sort || 'created_at', 'sort', problems),
        sortDirection: oneOf(['asc', 'desc'] as const, req.sortDirection || 'desc', 'sort_direction', problems),
        limit: req.limit,
        offset: req.offset,
      };
      if (problems.length) throw invalidParameters(problems);
      const result = await listPosts(deps, query);
      return {
        posts: result.posts.map(postMessage),
        counts: Object.entries(result.counts).map(([status, count]) => ({ status, count })),
        totalCount: result.totalCount,
        limit: result.limit,
        offset: result.offset,
      };
    },
    getPost: async (req) => ({ post: postMessage(await getPost(deps, req.workspaceId, req.postId)) }),
    createPost: async (req) => {
      const problems: string[] = [];
      const input = parseNewPost(req, req.workspaceId, problems);
      if (problems.length) throw invalidParameters(problems);
      return { post: postMessage(await createPost(deps, input)) };
    },
    bulkCreatePosts: async (req) => {
      const problems: string[] = [];
      const inputs = req.posts.map((p, i) => {
        const own: string[] = [];
        const input = parseNewPost(p, req.workspaceId, own);
        problems.push(...own.map((m) => `posts[${i}]: ${m}`));
        return input;
      });
      if (problems.length) throw invalidParameters(problems);
      return { posts: (await bulkCreatePosts(deps, req.workspaceId, inputs)).map(postMessage) };
    },
    updatePost: async (req) => {
      const problems: string[] = [];
      const patch: PostPatch = {
        body: req.body,
        status: req.status === undefined ? undefined : oneOf(['draft', 'scheduled'] as const, req.status, 'status', problems),
        scheduledAt: req.clearScheduledAt ? null : date(req.scheduledAt, 'scheduled_at', problems),
        flexible: req.flexible,
        recurrenceJitterEnabled: req.recurrenceJitterEnabled,
        evergreen: req.evergreen,
        evergreenVariations: req.hasEvergreenVariations ? req.evergreenVariations : undefined,
        recurrenceIntervalDays: req.recurrenceIntervalDays,
        dryRun: req.dryRun,
        postContents: req.hasPostContents ? parseContents(req.postContents, problems) : undefined,
        socialAccountIds: req.hasSocialAccountIds ? req.socialAccountIds : undefined,
      };
      if (problems.length) throw invalidParameters(problems);
      return { post: postMessage(await updatePost(deps, req.workspaceId, req.postId, patch)) };
    },
    getNextSlot: async (req) => {
      const slot = await nextFreeSlot(deps, req.workspaceId, req.socialAccountId);
      return { scheduledAt: slot.at?.toISOString(), socialAccountId: req.socialAccountId, timezone: slot.timezone, postingScheduleId: slot.scheduleId };
    },
    publishPost: async (req) => ({ post: postMessage(await publishPost(deps, req.workspaceId, req.postId, req.toNextSlot)) }),
    recordPublishResults: async (req) => {
      const problems: string[] = [];
      const results = req.results.map((r, i) => ({
        postAccountId: r.postAccountId,
        platformStatus: oneOf(['posted', 'failed', 'dry_run'] as const, r.platformStatus, `results[${i}].platform_status`, problems),
        platformPostId: r.platformPostId,
        permalink: r.permalink,
        platformError: r.platformError,
        disconnected: r.disconnected,
        dubShortUrl: r.dubShortUrl,
        dubOriginalUrl: r.dubOriginalUrl,
      }));
      if (problems.length) throw invalidParameters(problems);
      return { post: postMessage(await recordPublishResults(deps, req.workspaceId, req.postId, results)) };
    },
    deletePost: async (req) => ({ post: postMessage(await deletePost(deps, req.workspaceId, req.postId)) }),
    rejectPost: async (req) => ({ post: postMessage(await rejectPost(deps, req.workspaceId, req.postId, req.rejectionReason)) }),
    approvePost: async (req) => ({ post: postMessage(await approvePost(deps, req.workspaceId, req.postId)) }),
  });
}
