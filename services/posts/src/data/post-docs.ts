import { captureOrigin } from '@spa/telemetry';
import type { ContentType, Platform, PlatformStatus, PostStatus } from '@spa/vocabulary';
import type { Post } from '../domain/model.js';
import { DEFAULT_RECURRENCE_INTERVAL_DAYS } from '../domain/recurrence.js';

export interface PostDoc {
  origin?: { request_id?: string; traceparent?: string; tracestate?: string } | null;
  _id: number;
  workspace_id: number;
  status: string;
  flexible: boolean;
  scheduled_at?: Date | null;
  /** `scheduled_at` in whole seconds since the epoch: the scheduler reads the posts due in a second by equality. */
  due_second?: number | null;
  posted_at?: Date | null;
  failed_at?: Date | null;
  post_error?: string | null;
  disconnected: boolean;
  source: string;
  recurrence_jitter_enabled: boolean;
  evergreen: boolean;
  evergreen_variations: string[];
  recycled_from_id?: number | null;
  recurrence_interval_days?: number | null;
  reviewed_at?: Date | null;
  review_action?: string | null;
  rejection_reason?: string | null;
  created_at: Date;
  updated_at: Date;
  body: string;
  dry_run: boolean;
  post_contents: Array<{ id: number; platform: string; body: string; content_type: string; position: number; first_comment?: string | null; metadata?: Record<string, unknown> | null }>;
  post_accounts: Array<{
    id: number;
    social_account_id: number;
    platform: string;
    username: string;
    platform_status?: PlatformStatus | null;
    platform_post_id?: string | null;
    permalink?: string | null;
    platform_error?: string | null;
    dub_short_url?: string | null;
    dub_original_url?: string | null;
    // A count stored null (or missing) is one the platform does not report.
    post_metric?: {
      impressions?: number | null;
      likes?: number | null;
      replies?: number | null;
      reposts?: number | null;
      clicks?: number | null;
      engagement_rate?: number | null;
      fetched_at: Date;
    } | null;
  }>;
}

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

export function toPost(d: PostDoc): Post {
  return {
    ...(d.origin ? { origin: { requestId: d.origin.request_id, traceparent: d.origin.traceparent, tracestate: d.origin.tracestate } } : {}),
    id: d._id,
    workspaceId: d.workspace_id,
    status: d.status as PostStatus,
    flexible: d.flexible,
    scheduledAt: opt(d.scheduled_at),
    postedAt: opt(d.posted_at),
    failedAt: opt(d.failed_at),
    postError: opt(d.post_error),
    disconnected: d.disconnected,
    source: d.source,
    recurrenceJitterEnabled: d.recurrence_jitter_enabled,
    evergreen: d.evergreen,
    evergreenVariations: d.evergreen_variations ?? [],
    recycledFromId: opt(d.recycled_from_id),
    recurrenceIntervalDays: d.recurrence_interval_days ?? DEFAULT_RECURRENCE_INTERVAL_DAYS,
    reviewedAt: opt(d.reviewed_at),
    reviewAction: opt(d.review_action),
    rejectionReason: opt(d.rejection_reason),
    createdAt: d.created_at,
    updatedAt: d.updated_at,
    body: d.body,
    dryRun: d.dry_run,
    postContents: d.post_contents.map((c) => ({
      id: c.id,
      platform: c.platform as Platform,
      body: c.body,
      contentType: c.content_type as ContentType,
      position: c.position,
      firstComment: opt(c.first_comment),
      metadata: c.metadata ?? {},
    })),
    postAccounts: d.post_accounts.map((a) => ({
      id: a.id,
      socialAccountId: a.social_account_id,
      platform: a.platform as Platform,
      username: a.username,
      platformStatus: opt(a.platform_status),
      platformPostId: opt(a.platform_post_id),
      permalink: opt(a.permalink),
      platformError: opt(a.platform_error),
      dubShortUrl: opt(a.dub_short_url),
      dubOriginalUrl: opt(a.dub_original_url),
      postMetric: a.post_metric
        ? {
            impressions: a.post_metric.impressions ?? null,
            likes: a.post_metric.likes ?? null,
            replies: a.post_metric.replies ?? null,
            reposts: a.post_metric.reposts ?? null,
            clicks: a.post_metric.clicks ?? null,
            engagementRate: a.post_metric.engagement_rate ?? null,
            fetchedAt: a.post_metric.fetched_at,
          }
        : undefined,
    })),
  };
}

/** The origin stored with a write: the request making it, or (a background write) the one already stored. */
function originDoc(p: Post): PostDoc['origin'] {
  const now = captureOrigin();
  const o = now.requestId || now.traceparent ? now : p.origin;
  return o ? { ...(o.requestId ? { request_id: o.requestId } : {}), ...(o.traceparent ? { traceparent: o.traceparent } : {}), ...(o.tracestate ? { tracestate: o.tracestate } : {}) } : null;
}

/**
 * The stored document of a post (snake_case, `_id` = the public id), as Mongoose would cast it (fields in
 * the schema's order) once its undefined fields are left out: written as it is by the driver.
 */
export function toDoc(p: Post): Omit<PostDoc, 'post_accounts'> & { post_accounts: unknown[] } {
  return {
    _id: p.id,
    workspace_id: p.workspaceId,
    status: p.status,
    flexible: p.flexible,
    scheduled_at: p.scheduledAt ?? null,
    due_second: p.scheduledAt ? dueSecond(p.scheduledAt) : null,
    posted_at: p.postedAt ?? null,
    failed_at: p.failedAt ?? null,
    post_error: p.postError ?? null,
    disconnected: p.disconnected,
    source: p.source,
    recurrence_jitter_enabled: p.recurrenceJitterEnabled,
    evergreen: p.evergreen,
    evergreen_variations: p.evergreenVariations,
    recycled_from_id: p.recycledFromId ?? null,
    recurrence_interval_days: p.recurrenceIntervalDays,
    reviewed_at: p.reviewedAt ?? null,
    review_action: p.reviewAction ?? null,
    rejection_reason: p.rejectionReason ?? null,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    body: p.body,
    dry_run: p.dryRun,
    origin: originDoc(p),
    post_contents: p.postContents.map((c) => ({
      id: c.id,
      platform: c.platform,
      body: c.body,
      content_type: c.contentType,
      position: c.position,
      first_comment: c.firstComment ?? null,
      metadata: c.metadata,
    })),
    post_accounts: p.postAccounts.map((a) => ({
      id: a.id,
      social_account_id: a.socialAccountId,
      platform: a.platform,
      username: a.username,
      platform_status: a.platformStatus,
      platform_post_id: a.platformPostId,
      permalink: a.permalink,
      platform_error: a.platformError,
      dub_short_url: a.dubShortUrl,
      dub_original_url: a.dubOriginalUrl,
      post_metric: a.postMetric && {
        impressions: a.postMetric.impressions,
        likes: a.postMetric.likes,
        replies: a.postMetric.replies,
        reposts: a.postMetric.reposts,
        clicks: a.postMetric.clicks,
        engagement_rate: a.postMetric.engagementRate,
        fetched_at: a.postMetric.fetchedAt,
      },
    })),
  };
}

/**
 * The filter of a write guarded by the post as it was read (by `_id` within its workspace): `_id` and
 * `updated_at`, nothing else indexed. FerretDB on PostgreSQL turns each equality into a containment the
 * planner may serve from any GIN companion; with `workspace_id` beside `_id` it served some lookups from
 * the workspace's index (every post of the workspace read, then filtered) whenever its statistics lagged
 * behind a burst of new posts. With `_id` the only indexed field, the plan is the `_id` index, always.
 */
/** The second a time falls in (the `due_second` of a post due then). */
export const dueSecond = (at: Date): number => Math.floor(at.getTime() / 1000);

export const unchanged = (p: Post) => ({ _id: p.id, updated_at: p.updatedAt });
