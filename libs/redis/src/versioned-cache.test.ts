import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ListVersions, VersionedCache, type CacheResult } from './versioned-cache.js';

/** The version-validated cache on a real Redis (and one that cannot be reached). */
let redis: Redis;
const prefix = `t_versions_${randomBytes(4).toString('hex')}`;
beforeAll(() => {
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

function cacheWith(versions: ListVersions, options: { maxBytes?: number } = {}) {
  const results: CacheResult[] = [];
  let loads = 0;
  const cache = new VersionedCache<{ text: string }>(versions, { max: 100, ttlMs: 60_000, ...options, sizeOf: (v) => v.text.length }, (r) => results.push(r));
  const read = (workspaceId: number, key: string, text = `${key}@${loads}`) =>
    cache.get(workspaceId, key, async () => {
      loads++;
      return { text };
    });
  return { cache, results, read, loads: () => loads };
}

describe('VersionedCache', () => {
  it('serves a kept value while the workspace version stands, reads again once it moved, per workspace and key', async () => {
    const versions = new ListVersions(redis, prefix);
    const { results, read, loads } = cacheWith(versions);
    expect((await read(1, 'a')).text).toBe('a@0');
    expect((await read(1, 'a')).text).toBe('a@0');
    expect((await read(2, 'a')).text).toBe('a@1'); // another workspace: its own entry
    await versions.bump(1);
    expect((await read(1, 'a')).text).toBe('a@2');
    expect((await read(2, 'a')).text).toBe('a@1'); // workspace 2's version did not move
    expect(results).toEqual(['miss', 'hit', 'miss', 'miss', 'hit']);
    expect(loads()).toBe(3);
  });

  it('keeps a value read during a bump under the version read before it, so the next read loads again', async () => {
    const versions = new ListVersions(redis, prefix);
    const { cache } = cacheWith(versions);
    const first = await cache.get(3, 'k', async () => {
      await versions.bump(3); // a write lands while the value is read
      return { text: 'read during the write' };
    });
    expect(first.text).toBe('read during the write');
    expect((await cache.get(3, 'k', async () => ({ text: 'after' }))).text).toBe('after');
  });

  it('never serves a value kept before Redis lost its versions (restarted without persistence), however often they move on after', async () => {
    const versions = new ListVersions(redis, prefix);
    const { read } = cacheWith(versions);
    await versions.bump(7);
    expect((await read(7, 'k', 'before the restart')).text).toBe('before the restart');
    await redis.del(`${prefix}:7`); // the restart: every version is gone
    await versions.bump(7); // the first write after it
    expect((await read(7, 'k', 'after the restart')).text).toBe('after the restart');
  });

  it('keeps nothing when the read fails: the next get reads again', async () => {
    const { cache } = cacheWith(new ListVersions(redis, prefix));
    await expect(cache.get(6, 'k', () => Promise.reject(new Error('backend down')))).rejects.toThrow('backend down');
    expect((await cache.get(6, 'k', async () => ({ text: 'read again' }))).text).toBe('read again');
  });

  it('holds at most maxBytes of values, dropping the least recently used', async () => {
    const { read, loads } = cacheWith(new ListVersions(redis, prefix), { maxBytes: 25 });
    await read(4, 'x', 'x'.repeat(10));
    await read(4, 'y', 'y'.repeat(10));
    await read(4, 'x');
    await read(4, 'z', 'z'.repeat(10)); // 30 bytes: y, the least recently used, goes
    expect(loads()).toBe(3);
    await read(4, 'x');
    expect(loads()).toBe(3);
    expect((await read(4, 'y', 'y again')).text).toBe('y again');
  });

  it('sends the bumps of a workspace asked for at once as one, each answered only after a version set after it was asked', async () => {
    // The SETs counted as the client sends them (MONITOR would see them too, but ioredis can take a monitored line
    // for a reply when the server is busy: "Command queue state error").
    const client = redis.duplicate();
    const set = vi.spyOn(client, 'set');
    const versions = new ListVersions(client, prefix);
    const first = versions.bump(8);
    const before = await redis.get(`${prefix}:8`);
    // Asked for while the first is on its way: they wait for it, then go together.
    const joined = [versions.bump(8), versions.bump(8), versions.bump(8)];
    const other = versions.bump(9); // another workspace goes on its own
    await first;
    const afterFirst = await redis.get(`${prefix}:8`);
    await Promise.all([...joined, other]);
    const afterJoined = await redis.get(`${prefix}:8`);
    expect(new Set([before, afterFirst, afterJoined]).size).toBe(3);
    expect(set.mock.calls.map((args) => String(args[0])).sort()).toEqual([`${prefix}:8`, `${prefix}:8`, `${prefix}:9`]);
    client.disconnect();
  });

  it('reads through, keeping nothing, while Redis cannot be reached; a bump then rejects', async () => {
    const dead = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
    dead.on('error', () => undefined);
    const versions = new ListVersions(dead, prefix);
    const { results, read, loads } = cacheWith(versions);
    await read(5, 'a');
    await read(5, 'a');
    expect(results).toEqual(['bypass', 'bypass']);
    expect(loads()).toBe(2);
    await expect(versions.bump(5)).rejects.toThrow();
    dead.disconnect();
  });
});
