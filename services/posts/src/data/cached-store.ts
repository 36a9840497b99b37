import type { Logger } from '@spa/logger';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Dispatch, Post, PostEvent, PostMetric } from '../domain/model.js';
import type { ListPostsQuery, ListPostsResult, PostsStore } from '../domain/ports.js';

/**
 * A PostsStore that serves repeated list queries from memory. Each workspace has a version number
 * in Redis that every write through this store increments after the write lands; a cached page is
 * used only while the version it was read under is still current, so every replica sees a write
 * as soon as it returns. When Redis cannot be reached the cache is bypassed, never trusted; pages
 * also expire after 30 s, which bounds staleness if a bump was lost (Redis down during a write).
 */
export class CachedPostsStore implements PostsStore {
  /** Pages also expire after a while, which bounds staleness if a version bump was ever lost. */
  private readonly pages = new LRUCache<string, { version: string; result: ListPostsResult }>({ max: 5_000, ttl: 30_000 });

  constructor(
    private readonly inner: PostsStore,
    private readonly redis: Redis,
    private readonly logger: Logger,
    /** Redis key prefix of the versions; named after the database, so deployments never share one. */
    private readonly prefix: string,
  ) {}

  nextIds(sequence: 'posts' | 'post_contents' | 'post_accounts', count: number): Promise<number[]> {
    return this.inner.nextIds(sequence, count);
  }

  get(workspaceId: number, postId: number): Promise<Post | null> {
    return this.inner.get(workspaceId, postId);
  }

  scheduledTimes(workspaceId: number, socialAccountId: number, from: Date, to: Date): Promise<Date[]> {
    return this.inner.scheduledTimes(workspaceId, socialAccountId, from, to);
  }

  databaseNow(): Promise<Date> {
    return this.inner.databaseNow();
  }

  duePosts(now: Date, limit: number): Promise<Post[]> {
    return this.inner.duePosts(now, limit);
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

  markDispatchesSent(ids: string[], at: Date): Promise<void> {
    return this.inner.markDispatchesSent(ids, at);
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

  async list(query: ListPostsQuery): Promise<ListPostsResult> {
    const version = await this.version(query.workspaceId);
    if (version === undefined) return this.inner.list(query);
    const key = JSON.stringify(query);
    const hit = this.pages.get(key);
    if (hit && hit.version === version) return hit.result;
    const result = await this.inner.list(query);
    this.pages.set(key, { version, result });
    return result;
  }

  private key(workspaceId: number): string {
    return `${this.prefix}:${workspaceId}`;
  }

  private async version(workspaceId: number): Promise<string | undefined> {
    try {
      return (await this.redis.get(this.key(workspaceId))) ?? '0';
    } catch {
      return undefined;
    }
  }

  /** Makes every replica read the workspace's lists afresh (its version moves on). */
  async bump(workspaceId: number): Promise<void> {
    try {
      await this.redis.incr(this.key(workspaceId));
    } catch (err) {
      // Without the bump other replicas could serve a stale page: drop this process's pages and
      // make every replica bypass its cache until Redis answers again (reads check Redis first).
      this.pages.clear();
      this.logger.warn({ err, workspaceId }, 'post list cache: version bump failed');
    }
  }
}
