import { randomBytes } from 'node:crypto';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { ListVersions } from '@spa/redis';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost } from '../domain/create-post.js';
import type { ListPostsQuery, PostsDeps } from '../domain/ports.js';
import { aPost } from './__fixtures__/posts.js';
import { CachedPostsStore } from './cached-store.js';
import { MongoPostsStore } from './mongo-store.js';

let connection: Connection;
let mongo: MongoPostsStore;
let redis: Redis;
const prefix = `t_cache_${randomBytes(4).toString('hex')}`;
const logger = createLogger('cache-test', 'silent');

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', prefix);
  mongo = new MongoPostsStore(connection);
  await syncIndexes(connection);
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
});
afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
  await redis.quit();
});

const query = (workspaceId: number): ListPostsQuery => ({
  workspaceId,
  statuses: ['draft'],
  sort: 'created_at',
  sortDirection: 'desc',
  limit: 10,
  offset: 0,
});

describe('post list cache (real store and Redis)', () => {
  it('shows a write made through another replica on the very next read', async () => {
    // Two replicas: each its own in-memory pages, sharing the database and Redis.
    const replicaA = new CachedPostsStore(mongo, new ListVersions(redis, prefix), logger, { pages: true });
    const replicaB = new CachedPostsStore(mongo, new ListVersions(redis, prefix), logger, { pages: true });
    const depsB: PostsDeps = {
      store: replicaB,
      accounts: {
        workspaceSettings: async () => ({ reviewRequired: false }),
        socialAccounts: async () => [],
        postingSchedule: async () => {
          throw new Error('not used by this test');
        },
      },
      clock: { now: () => new Date() },
      flushEvents: () => undefined,
      jobs: { send: async () => undefined },
    };
    expect((await replicaA.list(query(1))).totalCount).toBe(0);
    expect((await replicaA.list(query(1))).totalCount).toBe(0);
    await createPost(depsB, { workspaceId: 1, body: 'new', postContents: [], socialAccountIds: [], source: 'api' });
    expect((await replicaA.list(query(1))).totalCount).toBe(1);
    // Another workspace's cached page is unaffected by the write and still correct.
    expect((await replicaA.list(query(2))).totalCount).toBe(0);
  });

  it('moves the version on after a write even without pages of its own (the gateway keeps answers under it)', async () => {
    const versions = new ListVersions(redis, prefix);
    const store = new CachedPostsStore(mongo, versions, logger, { pages: false });
    const deps: PostsDeps = {
      store,
      accounts: { workspaceSettings: async () => ({ reviewRequired: false }), socialAccounts: async () => [], postingSchedule: async () => undefined as never },
      clock: { now: () => new Date() },
      flushEvents: () => undefined,
      jobs: { send: async () => undefined },
    };
    const before = await versions.current(4);
    await createPost(deps, { workspaceId: 4, body: 'new', postContents: [], socialAccountIds: [], source: 'api' });
    expect(await versions.current(4)).not.toBe(before);
    expect((await store.list(query(4))).totalCount).toBe(1);
  });

  it('bypasses the cache while Redis is unreachable', async () => {
    const deadRedis = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
    deadRedis.on('error', () => undefined);
    const store = new CachedPostsStore(mongo, new ListVersions(deadRedis, prefix), logger, { pages: true });
    const before = (await store.list(query(3))).totalCount;
    await mongo.insert([aPost({ id: 9_001, workspaceId: 3, status: 'draft', updatedAt: new Date(), body: 'x' })], []);
    expect((await store.list(query(3))).totalCount).toBe(before + 1);
    deadRedis.disconnect();
  });
});
