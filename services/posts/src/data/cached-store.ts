import type { Logger } from '@spa/logger';
import { VersionedCache, type ListVersions } from '@spa/redis';
import { listCacheResults } from '@spa/telemetry';
import type { Dispatch, Post, PostEvent, PostMetric } from '../domain/model.js';
import type { ListPostsQuery, ListPostsResult, PostsStore } from '../domain/ports.js';

/**
 * A PostsStore that moves the workspace's list version (`ListVersions`, in Redis) on after every write that
 * lands, and, with `pages`, serves repeated list queries from memory while that version is current: every
 * replica sees a write as soon as it returns. The gateway's answer cache reads the same versions, so the bumps
 * are made whether or not this process keeps pages. When Redis cannot be reached the cache is bypassed, never
 * trusted; pages also expire after 30 s, which bounds staleness if a bump was lost (Redis down during a write).
 */
export class CachedPostsStore implements PostsStore {
  /** Pages also expire after a while, which bounds staleness if a version bump was ever lost. */
  private readonly pages: VersionedCache<ListPostsResult> | undefined;

  constructor(
    private readonly inner: PostsStore,
    private readonly versions: ListVersions,
    private readonly logger: Logger,
    options: { pages: boolean },
  ) {
    this.pages = options.pages ? new VersionedCache(versions, { max: 5_000, ttlMs: 30_000 }, (result) => listCacheResults.inc({ cache: 'posts_pages', result })) : undefined;
  }

  nextIds(sequence: 'posts' | 'post_contents' | 'post_accounts', count: number): Promise<number[]> {
    return this.inner.nextIds(sequence, count);
  }

  get(workspaceId: number, postId: number): Promise<Post | null> {
    return this.inner.get(workspaceId, postId);
  }

  lastRead(workspaceId: number, postId: number): Post | undefined {
    return this.inner.lastRead(workspaceId, postId);
  }

  scheduledTimes(workspaceId: number, socialAccountId: number, from: Date, to: Date): Promise<Date[]> {
    return this.inner.scheduledTimes(workspaceId, socialAccountId, from, to);
  }

  databaseNow(): Promise<Date> {
    return this.inner.databaseNow();
  }

  duePosts(now: Date, limit: number, since?: Date): Promise<Post[]> {
    return this.inner.duePosts(now, limit, since);
  }

  claimDispatches(dispatches: Dispatch[]): Promise<boolean[]> {
    return this.inner.claimDispatches(dispatches);
  }

  getDispatch(id: string): Promise<Dispatch | null> {
    return this.inner.getDispatch(id);
  }

  async startPublishing(posts: Post[], at: Date): Promise<number> {
    const moved = await this.inner.startPublishing(posts, at);
    // Which ones moved is not known when some did not: every workspace of the batch reads afresh.
    if (moved) for (const workspaceId of new Set(posts.map((p) => p.workspaceId))) await this.bump(workspaceId);
    return moved;
  }

  finishDispatches(ids: string[]): Promise<void> {
    return this.inner.finishDispatches(ids);
  }

  unsentDispatches(before: Date, limit: number): Promise<Dispatch[]> {
    return this.inner.unsentDispatches(before, limit);
  }

  async insert(posts: Post[], events: PostEvent[]): Promise<void> {
    await this.inner.insert(posts, events);
    for (const workspaceId of new Set(posts.map((p) => p.workspaceId))) await this.bump(workspaceId);
  }

  async insertOnce(post: Post, event: PostEvent): Promise<boolean> {
    const inserted = await this.inner.insertOnce(post, event);
    if (inserted) await this.bump(post.workspaceId);
    return inserted;
  }

  async replace(current: Post, next: Post, event: PostEvent): Promise<Post | null> {
    const saved = await this.inner.replace(current, next, event);
    if (saved) await this.bump(current.workspaceId);
    return saved;
  }

  async remove(current: Post, event: PostEvent): Promise<boolean> {
    const removed = await this.inner.remove(current, event);
    if (removed) await this.bump(current.workspaceId);
    return removed;
  }

  async recordMetric(current: Post, postAccountId: number, metric: PostMetric): Promise<boolean> {
    const saved = await this.inner.recordMetric(current, postAccountId, metric);
    if (saved) await this.bump(current.workspaceId);
    return saved;
  }

  async transition(...args: Parameters<PostsStore['transition']>): Promise<Post | null> {
    const post = await this.inner.transition(...args);
    if (post) await this.bump(args[0]);
    return post;
  }

  list(query: ListPostsQuery): Promise<ListPostsResult> {
    if (!this.pages) return this.inner.list(query);
    return this.pages.get(query.workspaceId, JSON.stringify(query), () => this.inner.list(query));
  }

  /** Makes every replica read the workspace's lists afresh (its version moves on). */
  async bump(workspaceId: number): Promise<void> {
    try {
      await this.versions.bump(workspaceId);
    } catch (err) {
      // Without the bump other replicas could serve a stale page: drop this process's pages and
      // make every replica bypass its cache until Redis answers again (reads check Redis first).
      this.pages?.clear();
      this.logger.warn({ err, workspaceId }, 'post list cache: version bump failed');
    }
  }
}
