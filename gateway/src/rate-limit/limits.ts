import { AppError } from '@spa/errors';
import type { Logger } from '@spa/logger';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { WriteCoalescer } from './write-coalescer.js';

export interface Limit {
  points: number;
  durationSec: number;
}

/** The global ceiling per client IP, and the per-token buckets of the contract's limits table. */
export const GLOBAL_LIMIT: Limit = { points: 100, durationSec: 60 };

export const BUCKETS = {
  /** POST /posts/generate and /posts/generate_from_idea. */
  generate: { points: 10, durationSec: 60 },
  /** POST /posts/generate_batch, /generate_thread, /generate_carousel: one shared bucket. */
  generate_multi: { points: 6, durationSec: 60 },
  /** POST /posts/{post_id}/publishes. */
  publishes: { points: 30, durationSec: 60 },
  /** POST /linkedin/video_uploads. */
  linkedin_video_uploads: { points: 10, durationSec: 3600 },
} as const satisfies Record<string, Limit>;

export type BucketName = keyof typeof BUCKETS;

/** What one limiter said about one request: enough to write the RateLimit-* headers. */
export interface LimitState {
  limit: number;
  remaining: number;
  resetSec: number;
}

/**
 * Fixed-window limiters in Redis (exact across every gateway sharing the Redis and prefix); each
 * falls back to an in-process limiter of the same size while Redis is unreachable.
 */
export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterAbstract>();
  private readonly writes: WriteCoalescer;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {
    this.writes = new WriteCoalescer(redis);
  }

  private limiter(name: string, limit: Limit): RateLimiterAbstract {
    let limiter = this.limiters.get(name);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${this.prefix}:rl:${name}`,
        points: limit.points,
        duration: limit.durationSec,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${this.prefix}:rl:${name}`, points: limit.points, duration: limit.durationSec }),
      });
      this.limiters.set(name, limiter);
    }
    return limiter;
  }

  /** Consumes one point for `key`; throws RATE_LIMIT_EXCEEDED (with the state) when none is left. */
  async consume(name: string, limit: Limit, key: string): Promise<LimitState> {
    try {
      this.writes.hold();
      const res = await this.limiter(name, limit).consume(key, 1);
      return state(limit, res);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        const s = state(limit, rejection);
        throw Object.assign(
          new AppError('RATE_LIMIT_EXCEEDED', `Rate limit exceeded: ${limit.points} requests per ${describe(limit.durationSec)}; retry in ${s.resetSec} s`, {
            retryAfter: s.resetSec,
          }),
          { limitState: s },
        );
      }
      // Both Redis and the in-process fallback failed: never fail the request for it.
      this.logger.error({ err: rejection, limiter: name }, 'rate limiter failed; request let through');
      return { limit: limit.points, remaining: limit.points, resetSec: limit.durationSec };
    }
  }
}

function state(limit: Limit, res: RateLimiterRes): LimitState {
  return {
    limit: limit.points,
    remaining: Math.max(res.remainingPoints, 0),
    resetSec: Math.max(Math.ceil(res.msBeforeNext / 1000), 0),
  };
}

function describe(seconds: number): string {
  return seconds % 3600 === 0 ? `${seconds / 3600} hour(s)` : seconds % 60 === 0 ? `${seconds / 60} minute(s)` : `${seconds} s`;
}

/** Of the limiters that applied to a request, the one the RateLimit-* headers describe. */
export function mostRestrictive(states: LimitState[]): LimitState | undefined {
  return states.reduce<LimitState | undefined>((worst, s) => {
    if (!worst) return s;
    if (s.remaining !== worst.remaining) return s.remaining < worst.remaining ? s : worst;
    return s.resetSec > worst.resetSec ? s : worst;
  }, undefined);
}

export function limitStateOf(err: unknown): LimitState | undefined {
  return (err as { limitState?: LimitState } | null)?.limitState;
}
