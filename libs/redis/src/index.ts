import type { Logger } from '@spa/logger';
import { Redis } from 'ioredis';

export type { Redis };

/**
 * Connects to Redis for work that has a fallback (rate limits, caches): no offline queue, so a
 * command fails at once while Redis is down and the caller falls back instead of waiting. Resolves
 * once connected, or after `waitMs` with Redis still unreachable (ioredis keeps reconnecting).
 * Logs each loss and recovery once.
 */
export async function connectRedis(url: string, logger: Logger, fallback: string, waitMs = 3_000): Promise<Redis> {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
  let down = false;
  redis.on('error', (err: Error) => {
    if (!down) logger.warn({ err: err.message }, `redis unreachable; ${fallback}`);
    down = true;
  });
  redis.on('ready', () => {
    if (down) logger.info('redis reachable again');
    down = false;
  });
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, waitMs);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return redis;
}

/** Redis as a health dependency, for processes that cannot work without it. */
export function redisDependency(redis: Redis): { name: string; check(): Promise<void> } {
  return {
    name: 'redis',
    check: async () => {
      if (redis.status !== 'ready') throw new Error(`redis ${redis.status}`);
      await redis.ping();
    },
  };
}
export * from './versioned-cache.js';
