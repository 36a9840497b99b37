import { randomBytes } from 'node:crypto';
import { createLogger } from '@spa/logger';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUCKETS, GLOBAL_LIMIT, RateLimits, limitStateOf, mostRestrictive } from './limits.js';

let redis: Redis;
let limits: RateLimits;
const prefix = `t_rl_${randomBytes(4).toString('hex')}`;
beforeAll(async () => {
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { enableOfflineQueue: false });
  await new Promise((resolve) => redis.once('ready', resolve));
  limits = new RateLimits(redis, prefix, createLogger('limits-test', 'silent'));
});
afterAll(async () => {
  await redis.quit();
});

describe('the contract limits table', () => {
  it('has the global ceiling and every per-token bucket', () => {
    expect(GLOBAL_LIMIT).toEqual({ points: 100, durationSec: 60 });
    expect(BUCKETS).toEqual({
      generate: { points: 10, durationSec: 60 },
      generate_multi: { points: 6, durationSec: 60 },
      publishes: { points: 30, durationSec: 60 },
      linkedin_video_uploads: { points: 10, durationSec: 3600 },
    });
  });

  for (const [name, limit] of Object.entries(BUCKETS)) {
    it(`bucket ${name}: ${limit.points} per ${limit.durationSec} s per token, counted in Redis`, async () => {
      for (let i = 1; i <= limit.points; i++) {
        const state = await limits.consume(name, limit, 'key:1');
        expect(state).toMatchObject({ limit: limit.points, remaining: limit.points - i });
      }
      let refused: unknown;
      try {
        await limits.consume(name, limit, 'key:1');
      } catch (err) {
        refused = err;
      }
      expect(refused).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
      const state = limitStateOf(refused)!;
      expect(state.remaining).toBe(0);
      expect(state.resetSec).toBeGreaterThan(0);
      expect(state.resetSec).toBeLessThanOrEqual(limit.durationSec);
      expect((refused as { retryAfter: number }).retryAfter).toBe(state.resetSec);
      // The count lives in Redis (shared by every gateway), not in this process.
      expect(await redis.get(`${prefix}:rl:${name}:key:1`)).toBe(String(limit.points + 1));
      // Another token has its own bucket.
      expect((await limits.consume(name, limit, 'key:2')).remaining).toBe(limit.points - 1);
    });
  }
});

describe('requests arriving together', () => {
  it('send their limiter commands in one socket write and are still counted one by one', async () => {
    const limit = { points: 30, durationSec: 60 };
    await limits.consume('together', limit, 'warm-up'); // loads the limiter's script: its own round trip
    // Socket flushes: one _write per unbuffered write, one _writev per batch (Node's stream implementation hooks).
    const socket = redis.stream as unknown as Record<'_write' | '_writev', (...args: unknown[]) => void>;
    const flushes: number[] = [];
    for (const hook of ['_write', '_writev'] as const) {
      const original = socket[hook].bind(socket);
      socket[hook] = (...args: unknown[]) => {
        flushes.push(hook === '_writev' ? (args[0] as unknown[]).length : 1);
        original(...args);
      };
    }
    const answers = await Promise.allSettled(Array.from({ length: 40 }, () => limits.consume('together', limit, 'key:1')));
    delete (socket as Partial<typeof socket>)._write;
    delete (socket as Partial<typeof socket>)._writev;
    expect(flushes).toEqual([40]);
    const allowed = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value.remaining] : []));
    expect(allowed.sort((a, b) => b - a)).toEqual(Array.from({ length: 30 }, (_, i) => 29 - i));
    expect(answers.filter((a) => a.status === 'rejected').map((a) => (a.reason as { code: string }).code)).toEqual(Array(10).fill('RATE_LIMIT_EXCEEDED'));
    expect(await redis.get(`${prefix}:rl:together:key:1`)).toBe('40');
  });
});

describe('mostRestrictive', () => {
  it('describes the limiter with the fewest requests left, then the longest wait', () => {
    const global = { limit: 100, remaining: 40, resetSec: 30 };
    const bucket = { limit: 6, remaining: 2, resetSec: 50 };
    expect(mostRestrictive([global, bucket])).toBe(bucket);
    expect(
      mostRestrictive([
        { limit: 10, remaining: 0, resetSec: 5 },
        { limit: 6, remaining: 0, resetSec: 50 },
      ])?.resetSec,
    ).toBe(50);
    expect(mostRestrictive([])).toBeUndefined();
  });
});
