import { randomUUID } from 'node:crypto';
import { deleteByBatch, inWaves, insertEach, updateEach, type Connection } from '@spa/mongo';
import { LRUCache } from 'lru-cache';
import { movedToPublishing, type Dispatch, type Post } from '../domain/model.js';
import type { PostsStore } from '../domain/ports.js';
import type { PostListIndex } from './list-index.js';
import type { PostsModels } from './models.js';
import { dueSecond, toPost, unchanged, type PostDoc } from './post-docs.js';

/** A due window longer than this is read as a whole scan (one find per second of it would be more work). */
const MAX_WINDOW_SECONDS = 300;
/** Finds of a window's seconds in flight at once. */
const WINDOW_READS_AT_ONCE = 8;

/**
 * The part of the PostsStore that dispatches scheduled posts (domain/publishing.ts): the database clock, due
 * posts, their dispatch claims (`dispatches`, `_id` = the dispatch id) and their move to publishing.
 *
 * A claim stands while its job is unsent and is removed once finished, so the collection holds only the
 * claims in progress (and those of dispatchers that died). Finishing removes the claims of one insert in one
 * statement, found by its `batch` (`deleteByBatch`), where marking each sent cost a store transaction per claim.
 */
export class MongoDispatchStore implements Pick<PostsStore, 'databaseNow' | 'duePosts' | 'claimDispatches' | 'getDispatch' | 'startPublishing' | 'finishDispatches' | 'unsentDispatches'> {
  /** The batch (insert) each claim this process won was inserted in, until it is finished. */
  private readonly batchOf = new LRUCache<string, string>({ max: 200_000 });

  constructor(
    private readonly connection: Connection,
    private readonly models: PostsModels,
    private readonly listIndex: PostListIndex,
  ) {}

  async databaseNow(): Promise<Date> {
    const hello = await this.connection.db!.command({ hello: 1 });
    return hello.localTime instanceof Date ? hello.localTime : new Date();
  }

  /**
   * Without `since`, every scheduled post due by `now` (a query the local store answers by reading every
   * scheduled post, due or not: FerretDB 1.x pushes down neither the range nor the sort). With it, only
   * those due from `since`: a find by equality on `due_second` for each second of the window, which reads
   * no more than the posts due in it however many are scheduled later.
   */
  async duePosts(now: Date, limit: number, since?: Date): Promise<Post[]> {
    const [from, to] = [since ? dueSecond(since) : undefined, dueSecond(now)];
    const docs =
      from === undefined || to - from > MAX_WINDOW_SECONDS
        ? await this.models.Post.find({ status: 'scheduled', scheduled_at: { $lte: now } })
            .sort({ scheduled_at: 1 })
            .limit(limit)
            .lean<PostDoc[]>()
        : (
            await inWaves(
              Array.from({ length: to - from + 1 }, (_, i) => from + i),
              WINDOW_READS_AT_ONCE,
              (second) => this.models.Post.find({ due_second: second, status: 'scheduled', scheduled_at: { $lte: now } }).lean<PostDoc[]>(),
            )
          ).flat();
    return docs
      .sort((a, b) => a.scheduled_at!.getTime() - b.scheduled_at!.getTime())
      .slice(0, limit)
      .map(toPost);
  }

  /**
   * Gives `due_second` to scheduled posts stored before it existed (their first write since sets it too), so
   * a windowed due scan finds them; answers how many. Run at startup: a read of every scheduled post.
   */
  async backfillDueSeconds(): Promise<number> {
    const docs = await this.models.Post.find({ status: 'scheduled', due_second: null, scheduled_at: { $ne: null } }, { _id: 1, scheduled_at: 1 }).lean<Array<Pick<PostDoc, '_id' | 'scheduled_at'>>>();
    return updateEach(
      this.models.Post,
      docs.map((d) => ({ filter: { _id: d._id }, update: { $set: { due_second: dueSecond(d.scheduled_at!) } } })),
    );
  }

  async claimDispatches(ds: Dispatch[]): Promise<boolean[]> {
    const batch = randomUUID();
    const won = await insertEach(
      this.models.Dispatch,
      ds.map((d) => ({ _id: d.id, workspace_id: d.workspaceId, post_id: d.postId, claimed_at: d.claimedAt, job_sent: false, batch })),
    );
    for (const [i, d] of ds.entries()) if (won[i]) this.batchOf.set(d.id, batch);
    return won;
  }

  async getDispatch(id: string): Promise<Dispatch | null> {
    const doc = await this.models.Dispatch.findById(id).lean<DispatchDoc>();
    return doc ? toDispatch(doc) : null;
  }

  // One command, a statement per document by `_id` (FerretDB 1.x pushes no `$in` down: an update over the ids
  // would read every row).
  async startPublishing(posts: Post[], at: Date): Promise<number> {
    const moved = await updateEach(
      this.models.Post,
      posts.map((p) => ({ filter: unchanged(p), update: { $set: { status: 'publishing', updated_at: at } } })),
    );
    // The list index follows. When every post moved, their entries are known; when some did not (edited, deleted
    // or moved by a dead claimer meanwhile: rare), each is derived again from what is stored now.
    if (moved === posts.length) await this.listIndex.recordPosts(posts.map((p) => movedToPublishing(p, at)));
    else await Promise.all(posts.map((p) => this.listIndex.repair(p.workspaceId, p.id)));
    return moved;
  }

  /** One command (`deleteByBatch`): a statement per batch this process won the claims in, one per other claim. */
  async finishDispatches(ids: string[]): Promise<void> {
    await deleteByBatch(
      this.models.Dispatch,
      ids.map((_id) => ({ _id, batch: this.batchOf.get(_id) })),
    );
    for (const id of ids) this.batchOf.delete(id);
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
