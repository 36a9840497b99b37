import { captureOrigin } from '@spa/telemetry';
import { IdAllocator, insertEach, isDuplicateKeyError, updateEach, WriteBatcher, type Connection } from '@spa/mongo';
import type { ContentType, Platform, PlatformStatus, PostStatus } from '@spa/vocabulary';
import type { Dispatch, Post, PostEvent, PostMetric } from '../domain/model.js';
import type { ListPostsQuery, ListPostsResult, PostsStore } from '../domain/ports.js';
import { DEFAULT_RECURRENCE_INTERVAL_DAYS } from '../domain/recurrence.js';
import { entryOfDoc, entryOfPost, tombstone } from './list-entries.js';
import { PostListIndex, type PostsCollection } from './list-index.js';
import { registerModels, type PostsModels } from './models.js';
import { PostLists } from './post-lists.js';
import { LandedWrites, outboxEntry, type OutboxEntry } from './outbox.js';

export interface PostDoc {
  origin?: { request_id?: string; traceparent?: string; tracestate?: string } | null;
  _id: number;
  workspace_id: number;
  status: string;
  flexible: boolean;
  scheduled_at?: Date | null;
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
    post_metric?: { impressions: number; likes: number; replies: number; reposts: number; clicks: number; engagement_rate?: number | null; fetched_at: Date } | null;
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
            impressions: a.post_metric.impressions,
            likes: a.post_metric.likes,
            replies: a.post_metric.replies,
            reposts: a.post_metric.reposts,
            clicks: a.post_metric.clicks,
            engagementRate: a.post_metric.engagement_rate ?? null,
            fetchedAt: a.post_metric.fetched_at,
          }
        : undefined,
    })),
  };
}

/** The stored document of a post (snake_case, `_id` = the public id). */
/** The origin stored with a write: the request making it, or (a background write) the one already stored. */
function originDoc(p: Post): PostDoc['origin'] {
  const now = captureOrigin();
  const o = now.requestId || now.traceparent ? now : p.origin;
  return o ? { ...(o.requestId ? { request_id: o.requestId } : {}), ...(o.traceparent ? { traceparent: o.traceparent } : {}), ...(o.tracestate ? { tracestate: o.tracestate } : {}) } : null;
}

function toDoc(p: Post): Omit<PostDoc, 'post_accounts'> & { post_accounts: unknown[] } {
  return {
    origin: originDoc(p),
    _id: p.id,
    workspace_id: p.workspaceId,
    status: p.status,
    flexible: p.flexible,
    scheduled_at: p.scheduledAt ?? null,
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
const unchanged = (p: Post) => ({ _id: p.id, updated_at: p.updatedAt });

export class MongoPostsStore implements PostsStore {
  readonly models: PostsModels;
  /** The list index, kept with every write below (list-index.ts). */
  readonly listIndex: PostListIndex;
  /** The outbox entries of the writes below that landed, list entry recorded: the relay need not check them. */
  readonly landed = new LandedWrites();
  private readonly ids: IdAllocator;
  private readonly lists: PostLists<PostDoc>;
  /** The outbox entries of the writes made at the same time, inserted together (group commit); true for a new entry. */
  private readonly outboxInserts: WriteBatcher<OutboxEntry, boolean>;

  constructor(private readonly connection: Connection) {
    this.models = registerModels(connection);
    this.outboxInserts = new WriteBatcher((entries) => insertEach(this.models.Outbox, entries), { maxBatch: 200, maxInFlight: 2 });
    this.ids = new IdAllocator(connection);
    this.listIndex = new PostListIndex({ ...this.models, Post: this.models.Post as unknown as PostsCollection });
    this.lists = new PostLists(this.models.Post as never, this.listIndex, toPost);
  }

  /** Writes the event's outbox entry, before the change it announces (the relay drops it if the change never lands). */
  private async queueEvent(event: PostEvent, postUpdatedAt: Date): Promise<boolean> {
    return this.outboxInserts.add(outboxEntry(event, postUpdatedAt));
  }

  /** As queueEvent, for an event made once: one already queued is a defect, not a repeat. */
  private async queueNewEvent(event: PostEvent, postUpdatedAt: Date): Promise<void> {
    if (!(await this.queueEvent(event, postUpdatedAt))) throw new Error(`outbox: event ${event.msgId} is queued already`);
  }

  nextIds(sequence: string, count: number): Promise<number[]> {
    return this.ids.reserve(sequence, count);
  }

  async insert(posts: Post[], events: PostEvent[]): Promise<void> {
    await Promise.all(events.map((e) => this.queueNewEvent(e, posts.find((p) => p.id === e.postId)!.updatedAt)));
    try {
      await this.models.Post.insertMany(posts.map(toDoc), { ordered: true });
    } catch (err) {
      // No multi-document transactions: undo the part that landed, so a bulk create is all or none.
      await this.models.Post.deleteMany({ _id: { $in: posts.map((p) => p.id) }, workspace_id: posts[0]?.workspaceId });
      throw err;
    }
    // The list index right after the posts (a crash in between is repaired by the relay from the outbox).
    await this.recordEntries(posts);
    for (const e of events) this.landed.add(e.msgId);
  }

  /** Records the posts' list entries, one write per workspace. */
  private async recordEntries(posts: Post[]): Promise<void> {
    for (const workspaceId of new Set(posts.map((p) => p.workspaceId))) {
      await this.listIndex.record(workspaceId, posts.filter((p) => p.workspaceId === workspaceId).map(entryOfPost));
    }
  }

  async insertOnce(post: Post, event: PostEvent): Promise<boolean> {
    // The event first, so it is never lost; a repeat of either write is a duplicate key, not an error.
    const once = (err: unknown) => {
      if (!isDuplicateKeyError(err)) throw err;
      return null;
    };
    await this.queueEvent(event, post.updatedAt);
    const inserted = (await this.models.Post.create(toDoc(post)).catch(once)) !== null;
    if (inserted) {
      await this.listIndex.record(post.workspaceId, [entryOfPost(post)]);
      this.landed.add(event.msgId);
    }
    return inserted;
  }

  async replace(current: Post, next: Post, event: PostEvent): Promise<Post | null> {
    await this.queueNewEvent(event, next.updatedAt);
    const result = await this.models.Post.replaceOne(unchanged(current), toDoc(next));
    if (result.matchedCount === 1) {
      await this.listIndex.record(next.workspaceId, [entryOfPost(next)]);
      this.landed.add(event.msgId);
      return next;
    }
    await this.models.Outbox.deleteOne({ _id: event.msgId });
    return null;
  }

  async remove(current: Post, event: PostEvent): Promise<boolean> {
    await this.queueNewEvent(event, current.updatedAt);
    const result = await this.models.Post.deleteOne(unchanged(current));
    if (result.deletedCount === 1) {
      // The tombstone's version is past the deleted post's, whatever the clock says.
      await this.listIndex.record(current.workspaceId, [tombstone(current.id, new Date(Math.max(Date.now(), current.updatedAt.getTime() + 1)))]);
      this.landed.add(event.msgId);
      return true;
    }
    await this.models.Outbox.deleteOne({ _id: event.msgId });
    return false;
  }

  async recordMetric(current: Post, postAccountId: number, metric: PostMetric): Promise<boolean> {
    // The whole target list is set (FerretDB 1.x has no positional `$` update), guarded by the post's
    // updated_at so an edit that landed meanwhile is not overwritten; the metric leaves updated_at alone.
    const accounts = toDoc({ ...current, postAccounts: current.postAccounts.map((a) => (a.id === postAccountId ? { ...a, postMetric: metric } : a)) }).post_accounts;
    const result = await this.models.Post.updateOne(unchanged(current), { $set: { post_accounts: accounts } });
    return result.matchedCount === 1;
  }

  async get(workspaceId: number, postId: number): Promise<Post | null> {
    const doc = await this.models.Post.findById(postId).lean<PostDoc>();
    return doc?.workspace_id === workspaceId ? toPost(doc) : null;
  }

  list(q: ListPostsQuery): Promise<ListPostsResult> {
    return this.lists.list(q);
  }

  async transition(
    workspaceId: number,
    postId: number,
    from: PostStatus,
    patch: Partial<Pick<Post, 'status' | 'reviewedAt' | 'reviewAction' | 'rejectionReason' | 'updatedAt'>>,
    event?: PostEvent,
  ): Promise<Post | null> {
    const set: Record<string, unknown> = {};
    if (patch.status !== undefined) set.status = patch.status;
    if (patch.reviewedAt !== undefined) set.reviewed_at = patch.reviewedAt;
    if (patch.reviewAction !== undefined) set.review_action = patch.reviewAction;
    if (patch.rejectionReason !== undefined) set.rejection_reason = patch.rejectionReason;
    if (patch.updatedAt !== undefined) set.updated_at = patch.updatedAt;
    const updatedAt = patch.updatedAt ?? event?.occurredAt ?? new Date();
    set.updated_at = updatedAt;
    if (event) await this.queueNewEvent(event, updatedAt);
    const doc = await this.models.Post.findOneAndUpdate({ _id: postId, workspace_id: workspaceId, status: from }, { $set: set }, { returnDocument: 'after' }).lean<PostDoc>();
    if (!doc && event) await this.models.Outbox.deleteOne({ _id: event.msgId });
    if (!doc) return null;
    await this.listIndex.record(workspaceId, [entryOfDoc(doc)]);
    if (event) this.landed.add(event.msgId);
    return toPost(doc);
  }

  async scheduledTimes(workspaceId: number, socialAccountId: number, from: Date, to: Date): Promise<Date[]> {
    const docs = await this.models.Post.find(
      {
        workspace_id: workspaceId,
        'post_accounts.social_account_id': socialAccountId,
        status: { $in: ['scheduled', 'pending_review', 'publishing'] },
        scheduled_at: { $gte: from, $lte: to },
      },
      { scheduled_at: 1 },
    ).lean<Array<{ scheduled_at: Date }>>();
    return docs.map((d) => d.scheduled_at);
  }

  async databaseNow(): Promise<Date> {
    const hello = await this.connection.db!.command({ hello: 1 });
    return hello.localTime instanceof Date ? hello.localTime : new Date();
  }

  async duePosts(now: Date, limit: number): Promise<Post[]> {
    const docs = await this.models.Post.find({ status: 'scheduled', scheduled_at: { $lte: now } })
      .sort({ scheduled_at: 1 })
      .limit(limit)
      .lean<PostDoc[]>();
    return docs.map(toPost);
  }

  claimDispatches(ds: Dispatch[]): Promise<boolean[]> {
    return insertEach(
      this.models.Dispatch,
      ds.map((d) => ({ _id: d.id, workspace_id: d.workspaceId, post_id: d.postId, claimed_at: d.claimedAt, job_sent: false })),
    );
  }

  async getDispatch(id: string): Promise<Dispatch | null> {
    const doc = await this.models.Dispatch.findById(id).lean<DispatchDoc>();
    return doc ? toDispatch(doc) : null;
  }

  // The batch writes below are one command each, a statement per document by `_id` (FerretDB 1.x
  // pushes no `$in` down: an update over the ids would read every row).
  async startPublishing(posts: Post[], at: Date): Promise<number> {
    const moved = await updateEach(
      this.models.Post,
      posts.map((p) => ({ filter: unchanged(p), update: { $set: { status: 'publishing', updated_at: at } } })),
    );
    // The list index follows. When every post moved, their entries are known; when some did not (edited, deleted
    // or moved by a dead claimer meanwhile: rare), each is derived again from what is stored now.
    if (moved === posts.length) await this.recordEntries(posts.map((p) => ({ ...p, status: 'publishing', updatedAt: at })));
    else await Promise.all(posts.map((p) => this.listIndex.repair(p.workspaceId, p.id)));
    return moved;
  }

  async markDispatchesSent(ids: string[], at: Date): Promise<void> {
    await updateEach(
      this.models.Dispatch,
      ids.map((id) => ({ filter: { _id: id }, update: { $set: { job_sent: true, job_sent_at: at } } })),
    );
  }

  async unsentDispatches(before: Date, limit: number): Promise<Dispatch[]> {
    const docs = await this.models.Dispatch.find({ job_sent: false, claimed_at: { $lt: before } })
      .limit(limit)
      .lean<DispatchDoc[]>();
    return docs.map(toDispatch);
  }
}

interface DispatchDoc {
  _id: string;
  workspace_id: number;
  post_id: number;
  claimed_at: Date;
  job_sent_at?: Date | null;
}

const toDispatch = (d: DispatchDoc): Dispatch => ({
  id: d._id,
  workspaceId: d.workspace_id,
  postId: d.post_id,
  claimedAt: d.claimed_at,
  jobSentAt: d.job_sent_at ?? undefined,
});
