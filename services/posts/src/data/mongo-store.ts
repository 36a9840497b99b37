import { randomUUID } from 'node:crypto';
import { IdAllocator, insertEach, isDuplicateKeyError, WriteBatcher, type Connection } from '@spa/mongo';
import type { PostStatus } from '@spa/vocabulary';
import { LRUCache } from 'lru-cache';
import type { mongo } from 'mongoose';
import { movedToPublishing, type Dispatch, type Post, type PostEvent, type PostMetric } from '../domain/model.js';
import type { ListPostsQuery, ListPostsResult, PostsStore } from '../domain/ports.js';
import { MongoDispatchStore } from './dispatch-store.js';
import { entryOfDoc, entryOfPost, tombstone } from './list-entries.js';
import { PostListIndex, type PostsCollection } from './list-index.js';
import { registerModels, type PostsModels } from './models.js';
import { PostLists } from './post-lists.js';
import { LandedWrites, outboxEntry, type OutboxEntry } from './outbox.js';
import { toDoc, toPost, unchanged, type PostDoc } from './post-docs.js';

/** A post's size in memory, roughly: its texts (two bytes a character) and a fixed part per item. */
const approximateSize = (p: Post): number =>
  1_024 + 2 * p.body.length + p.postContents.reduce((n, c) => n + 512 + 2 * (c.body.length + (c.firstComment?.length ?? 0)), 0) + 512 * p.postAccounts.length;

type TransitionPatch = Partial<Pick<Post, 'status' | 'reviewedAt' | 'reviewAction' | 'rejectionReason' | 'updatedAt'>>;

/**
 * Each write that announces an event queues it in the outbox first, then makes the change, then records
 * its list entry; it runs under `landed.during`, so this process's relay leaves the entry to it meanwhile.
 */
export class MongoPostsStore implements PostsStore {
  readonly models: PostsModels;
  /** The list index, kept with every write below (list-index.ts). */
  readonly listIndex: PostListIndex;
  /** The outbox entries of the writes below that landed, list entry recorded: the relay need not check them. */
  readonly landed = new LandedWrites();
  /** Dispatching scheduled posts (dispatch-store.ts); the methods below hand it their calls. */
  readonly dispatches: MongoDispatchStore;
  private readonly ids: IdAllocator;
  private readonly lists: PostLists<PostDoc>;
  /** The outbox entries of the writes made at the same time, inserted together (group commit); true for a new entry. */
  private readonly outboxInserts: WriteBatcher<OutboxEntry, boolean>;
  /** The posts collection as the driver sees it (documents in stored form, `toDoc`). */
  private readonly postDocs: mongo.Collection<{ _id: number }>;
  /**
   * The posts read (`get`) or moved to publishing here lately (`lastRead`; one replaced, removed or moved otherwise
   * is forgotten): the base of the write of a post's publishing results, which come back a while after its
   * dispatch (all the posts due at once wait for the publishers), so it holds many and for minutes, bounded by
   * an estimate of their size.
   */
  private readonly lastReads = new LRUCache<number, Post>({ maxSize: 64 * 1024 * 1024, sizeCalculation: approximateSize, ttl: 15 * 60_000 });

  constructor(connection: Connection) {
    this.models = registerModels(connection);
    this.postDocs = this.models.Post.collection as unknown as mongo.Collection<{ _id: number }>;
    this.outboxInserts = new WriteBatcher(
      (entries) => {
        const batch = randomUUID();
        return insertEach(
          this.models.Outbox,
          entries.map((e) => ({ ...e, batch })),
        );
      },
      { maxBatch: 200, maxInFlight: 2 },
    );
    this.ids = new IdAllocator(connection);
    this.listIndex = new PostListIndex({ ...this.models, Post: this.models.Post as unknown as PostsCollection });
    this.lists = new PostLists(this.models.Post as never, this.listIndex, toPost);
    this.dispatches = new MongoDispatchStore(connection, this.models, this.listIndex);
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

  insert(posts: Post[], events: PostEvent[]): Promise<void> {
    return this.landed.during(
      events.map((e) => e.msgId),
      () => this.insertPosts(posts, events),
    );
  }

  private async insertPosts(posts: Post[], events: PostEvent[]): Promise<void> {
    await Promise.all(events.map((e) => this.queueNewEvent(e, posts.find((p) => p.id === e.postId)!.updatedAt)));
    try {
      await this.models.Post.insertMany(posts.map(toDoc), { ordered: true });
    } catch (err) {
      // No multi-document transactions: undo the part that landed, so a bulk create is all or none.
      await this.models.Post.deleteMany({ _id: { $in: posts.map((p) => p.id) }, workspace_id: posts[0]?.workspaceId });
      throw err;
    }
    // The list index right after the posts (a crash in between is repaired by the relay from the outbox).
    await this.listIndex.recordPosts(posts);
    for (const e of events) this.landed.add(e.msgId);
  }

  insertOnce(post: Post, event: PostEvent): Promise<boolean> {
    return this.landed.during([event.msgId], () => this.insertPostOnce(post, event));
  }

  private async insertPostOnce(post: Post, event: PostEvent): Promise<boolean> {
    // The event first, so it is never lost; a repeat of either write is a duplicate key, not an error.
    const once = (err: unknown) => {
      if (!isDuplicateKeyError(err)) throw err;
      return null;
    };
    const queued = await this.queueEvent(event, post.updatedAt);
    const inserted = (await this.models.Post.create(toDoc(post)).catch(once)) !== null;
    if (inserted) {
      await this.listIndex.record(post.workspaceId, [entryOfPost(post)]);
      this.landed.add(event.msgId);
    } else if (queued) {
      // A repeat, after the first write's event was published and its entry removed: this entry announces nothing.
      await this.models.Outbox.deleteOne({ _id: event.msgId });
    }
    return inserted;
  }

  replace(current: Post, next: Post, event: PostEvent): Promise<Post | null> {
    return this.landed.during([event.msgId], () => this.replacePost(current, next, event));
  }

  private async replacePost(current: Post, next: Post, event: PostEvent): Promise<Post | null> {
    await this.queueNewEvent(event, next.updatedAt);
    // Straight to the driver: the document is in stored form already, and Mongoose's cast of it into a
    // document first cost a tenth of this service's CPU while posts published (measured).
    const result = await this.postDocs.replaceOne(unchanged(current), toDoc(next), { ignoreUndefined: true });
    if (result.matchedCount === 1) {
      this.lastReads.delete(next.id); // no longer a base for a write
      await this.listIndex.record(next.workspaceId, [entryOfPost(next)]);
      this.landed.add(event.msgId);
      return next;
    }
    await this.models.Outbox.deleteOne({ _id: event.msgId });
    return null;
  }

  remove(current: Post, event: PostEvent): Promise<boolean> {
    return this.landed.during([event.msgId], () => this.removePost(current, event));
  }

  private async removePost(current: Post, event: PostEvent): Promise<boolean> {
    await this.queueNewEvent(event, current.updatedAt);
    const result = await this.models.Post.deleteOne(unchanged(current));
    if (result.deletedCount === 1) {
      this.lastReads.delete(current.id);
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
    const post = doc?.workspace_id === workspaceId ? toPost(doc) : null;
    if (post) this.lastReads.set(postId, post);
    return post;
  }

  lastRead(workspaceId: number, postId: number): Post | undefined {
    const post = this.lastReads.get(postId);
    return post?.workspaceId === workspaceId ? post : undefined;
  }

  list(q: ListPostsQuery): Promise<ListPostsResult> {
    return this.lists.list(q);
  }

  transition(workspaceId: number, postId: number, from: PostStatus, patch: TransitionPatch, event?: PostEvent): Promise<Post | null> {
    return this.landed.during(event ? [event.msgId] : [], () => this.transitionPost(workspaceId, postId, from, patch, event));
  }

  private async transitionPost(workspaceId: number, postId: number, from: PostStatus, patch: TransitionPatch, event?: PostEvent): Promise<Post | null> {
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
    this.lastReads.delete(postId);
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
  databaseNow(): Promise<Date> {
    return this.dispatches.databaseNow();
  }

  duePosts(now: Date, limit: number, since?: Date): Promise<Post[]> {
    return this.dispatches.duePosts(now, limit, since);
  }

  claimDispatches(dispatches: Dispatch[]): Promise<boolean[]> {
    return this.dispatches.claimDispatches(dispatches);
  }

  getDispatch(id: string): Promise<Dispatch | null> {
    return this.dispatches.getDispatch(id);
  }

  async startPublishing(posts: Post[], at: Date): Promise<number> {
    const moved = await this.dispatches.startPublishing(posts, at);
    // The publisher gets each post with its job and comes back with the results: remember them as moved.
    for (const post of posts) {
      if (moved === posts.length) this.lastReads.set(post.id, movedToPublishing(post, at));
      else this.lastReads.delete(post.id);
    }
    return moved;
  }

  finishDispatches(ids: string[]): Promise<void> {
    return this.dispatches.finishDispatches(ids);
  }

  unsentDispatches(before: Date, limit: number): Promise<Dispatch[]> {
    return this.dispatches.unsentDispatches(before, limit);
  }
}
