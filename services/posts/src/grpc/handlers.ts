import { contentTypeCodec, platformCodec, platformStatusCodec, postSortCodec, postStatusCodec, sortDirectionCodec, type EnumCodec } from '@spa/contracts/codecs';
import { PostsServiceService, type CreatePostRequest, type NewPostContent as NewPostContentMessage } from '@spa/contracts/posts/v1/posts';
import { invalidParameters } from '@spa/errors';
import { bindService, type ServiceBinding } from '@spa/grpc';
import { QUEUE_STATUSES, type PostStatus } from '@spa/vocabulary';
import { bulkCreatePosts } from '../domain/bulk-create-posts.js';
import { createPost, type NewPost, type NewPostContent } from '../domain/create-post.js';
import { nextFreeSlot } from '../domain/next-slot.js';
import { publishPost, recordPublishResults } from '../domain/publishing.js';
import { approvePost, rejectPost } from '../domain/review-post.js';
import { deletePost } from '../domain/delete-post.js';
import { updatePost, type PostPatch } from '../domain/update-post.js';
import type { ListPostsQuery, PostsDeps } from '../domain/ports.js';
import { getPost, listPosts } from '../domain/read-posts.js';
import { postMessage } from './post-message.js';

/**
 * The word of a closed set from its typed field, or, while callers built before the typed fields may still
 * call (see posts.proto), from the deprecated string beside it; undefined when neither is set. A value outside
 * the set is a problem naming the field.
 */
function wordOf<W extends string>(codec: EnumCodec<W, number>, value: number, legacy: string | undefined, field: string, problems: string[]): W | undefined {
  const word = codec.decode(value, legacy);
  if (word === undefined && (value !== 0 || legacy)) problems.push(`${field} must be one of ${codec.words.join(', ')} (got ${JSON.stringify(value !== 0 ? value : legacy)})`);
  return word;
}

/** The statuses a create or an update may ask for. */
function requestedStatus(value: number, legacy: string | undefined, problems: string[]): 'draft' | 'scheduled' | undefined {
  const status = wordOf(postStatusCodec, value, legacy, 'status', problems);
  if (status === undefined || status === 'draft' || status === 'scheduled') return status;
  problems.push(`status must be draft or scheduled (got ${JSON.stringify(status)})`);
  return undefined;
}

function date(value: string | undefined, field: string, problems: string[]): Date | undefined {
  if (value === undefined) return undefined;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) problems.push(`${field} must be an ISO 8601 date-time`);
  return d;
}

function parseMetadata(metadata: Record<string, unknown> | undefined, json: string, field: string, problems: string[]): Record<string, unknown> {
  if (metadata) return metadata;
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

/** As wordOf, for a field that must be set: unset is a problem naming it (the placeholder returned then is never used). */
function requiredWord<W extends string>(codec: EnumCodec<W, number>, value: number, legacy: string | undefined, field: string, problems: string[]): W {
  if (value === 0 && !legacy) problems.push(`${field} is required`);
  return wordOf(codec, value, legacy, field, problems) ?? ('' as W);
}

function listStatuses(states: number[], legacy: string[], problems: string[]): PostStatus[] {
  if (states.length) return states.map((s, i) => requiredWord(postStatusCodec, s, undefined, `status[${i}]`, problems));
  if (legacy.length) return legacy.map((s, i) => requiredWord(postStatusCodec, 0, s, `status[${i}]`, problems));
  return [...QUEUE_STATUSES];
}

function parseContents(contents: NewPostContentMessage[], problems: string[]): NewPostContent[] {
  return contents.map((c, i) => ({
    platform: requiredWord(platformCodec, c.platformKind, c.platform, `post_contents[${i}].platform`, problems),
    body: c.body,
    contentType: wordOf(contentTypeCodec, c.contentKind, c.contentType, `post_contents[${i}].content_type`, problems),
    position: c.position,
    firstComment: c.firstComment,
    metadata: parseMetadata(c.metadata, c.metadataJson, `post_contents[${i}].metadata`, problems),
  }));
}

function parseNewPost(req: CreatePostRequest, workspaceId: number, problems: string[]): NewPost {
  return {
    workspaceId,
    body: req.body,
    status: requestedStatus(req.state, req.status, problems),
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
        statuses: listStatuses(req.states, req.statuses, problems),
        source: req.source,
        scheduledAfter: date(req.scheduledAfter, 'scheduled_after', problems),
        scheduledBefore: date(req.scheduledBefore, 'scheduled_before', problems),
        platform: wordOf(platformCodec, req.platformKind, req.platform, 'platform', problems),
        sort: wordOf(postSortCodec, req.sortField, req.sort, 'sort', problems) ?? 'created_at',
        sortDirection: wordOf(sortDirectionCodec, req.direction, req.sortDirection, 'sort_direction', problems) ?? 'desc',
        limit: req.limit,
        offset: req.offset,
      };
      if (problems.length) throw invalidParameters(problems);
      const result = await listPosts(deps, query);
      return {
        posts: result.posts.map(postMessage),
        statusCounts: result.counts,
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
        status: requestedStatus(req.state, req.status, problems),
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
        platformStatus: requiredWord(platformStatusCodec, r.state, r.platformStatus, `results[${i}].platform_status`, problems),
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
