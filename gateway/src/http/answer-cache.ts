import { ListVersions, VersionedCache, type Redis } from '@spa/redis';
import { listCacheResults } from '@spa/telemetry';

/** An answer as sent: its status and JSON body. */
export interface KeptAnswer {
  status: number;
  json: string;
}

export type AnswerCache = VersionedCache<KeptAnswer>;

/**
 * The gateway's answers of `cachedUntilPostsChange` routes (GET /posts), kept per workspace and URL under the
 * workspace's post-list version (`prefix` is the posts service's POSTS_LIST_VERSION_PREFIX): at most 32 Mi
 * characters of JSON (the gateway stays well under 200 MiB of RSS), each answer at most 30 s (bounds staleness
 * should a version bump have been lost). A hit costs one Redis read instead of a gRPC call, the mapping of the
 * reply and its serializing.
 */
export function answerCache(redis: Redis, prefix: string): AnswerCache {
  return new VersionedCache<KeptAnswer>(new ListVersions(redis, prefix), { max: 5_000, ttlMs: 30_000, maxBytes: 32 * 1024 * 1024, sizeOf: (answer) => answer.json.length }, (result) =>
    listCacheResults.inc({ cache: 'gateway_answers', result }),
  );
}
