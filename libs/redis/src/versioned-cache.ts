import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';

/**
 * Per-workspace versions in Redis, for caches of what a workspace's lists answer. Every write that
 * changes those lists moves the workspace's version on once it has landed (`bump`), before its caller is
 * answered; a cache uses an entry only while the version it was read under is still the current one, so every
 * replica of every process that caches sees a write as soon as the write returns. The posts service bumps; the
 * posts service (its pages) and the gateway (its answers) read.
 */
export class ListVersions {
  /** Per workspace, the bump not yet sent, which every `bump` asked for meanwhile joins. */
  private readonly waiting = new Map<number, Promise<void>>();
  /** Per workspace, the bump sent and not yet answered. */
  private readonly sending = new Map<number, Promise<void>>();

  constructor(
    private readonly redis: Redis,
    /** Key prefix (`postListVersionPrefix`): named after the posts database, so deployments sharing a Redis never share one. */
    private readonly prefix: string,
  ) {}

  /** The workspace's current version; undefined when Redis cannot be reached (a cache is then bypassed, never trusted). */
  async current(workspaceId: number): Promise<string | undefined> {
    try {
      return (await this.redis.get(this.key(workspaceId))) ?? '0';
    } catch {
      return undefined;
    }
  }

  /**
   * Moves the workspace's version on to a value never used before (a random UUID, not a counter: a Redis
   * that lost its data, restarted without persistence, would count up through versions that values are
   * still kept under); rejects when Redis cannot be reached. Group commit: the bumps of a workspace asked
   * for while one is being sent wait for it to end, then go as one. Each still resolves only after a
   * version was set that was sent after it was asked for, so after the write that asked for it.
   */
  bump(workspaceId: number): Promise<void> {
    const waiting = this.waiting.get(workspaceId);
    if (waiting) return waiting;
    const previous = this.sending.get(workspaceId) ?? Promise.resolve();
    const next: Promise<void> = previous
      .catch(() => undefined)
      .then(async () => {
        this.waiting.delete(workspaceId);
        this.sending.set(workspaceId, next);
        try {
          await this.redis.set(this.key(workspaceId), randomUUID());
        } finally {
          if (this.sending.get(workspaceId) === next) this.sending.delete(workspaceId);
        }
      });
    this.waiting.set(workspaceId, next);
    return next;
  }

  private key(workspaceId: number): string {
    return `${this.prefix}:${workspaceId}`;
  }
}

/** The prefix of the post-list versions of the posts service whose database is `postsDb` (its default; the gateway's too). */
export const postListVersionPrefix = (postsDb: string): string => `${postsDb}:posts:version`;

/** The outcome of one `VersionedCache.get`, for a hit-ratio metric. */
export type CacheResult = 'hit' | 'miss' | 'bypass';

/**
 * Values of a workspace's lists kept in memory, each under the workspace version it was read under
 * (`ListVersions`): served while that version is current; read again (and kept) once it has moved on; read
 * without the cache while Redis cannot be reached. The version is read before the value, so a value kept is
 * never older than its version. Entries also expire after `ttlMs`, which bounds staleness should a bump have
 * been lost (Redis down during a write).
 */
export class VersionedCache<V extends object> {
  private readonly entries: LRUCache<string, { version: string; value: V }>;

  constructor(
    private readonly versions: ListVersions,
    options: { max: number; ttlMs: number; maxBytes?: number; sizeOf?: (value: V) => number },
    private readonly onResult?: (result: CacheResult) => void,
  ) {
    const { maxBytes, sizeOf } = options;
    this.entries = new LRUCache<string, { version: string; value: V }>({
      max: options.max,
      ttl: options.ttlMs,
      ...(maxBytes && sizeOf ? { maxSize: maxBytes, sizeCalculation: (entry) => Math.max(1, sizeOf(entry.value)) } : {}),
    });
  }

  /** The value of `key` in the workspace: kept, or read by `load` (and kept under the version read before it). */
  async get(workspaceId: number, key: string, load: () => Promise<V>): Promise<V> {
    const version = await this.versions.current(workspaceId);
    if (version === undefined) {
      this.onResult?.('bypass');
      return load();
    }
    const entryKey = `${workspaceId}\u0000${key}`;
    const hit = this.entries.get(entryKey);
    if (hit?.version === version) {
      this.onResult?.('hit');
      return hit.value;
    }
    this.onResult?.('miss');
    const value = await load();
    this.entries.set(entryKey, { version, value });
    return value;
  }

  /** Forgets every entry (this process can no longer tell whether they are current). */
  clear(): void {
    this.entries.clear();
  }
}
