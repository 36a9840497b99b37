import { randomBytes } from 'node:crypto';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '../domain/model.js';
import { recyclePosting, type RecycleDeps } from '../domain/recycle-post.js';
import { MongoPostsStore } from './mongo-store.js';
import { MongoRecycleStore } from './recycle-store.js';

/** Recycling against the real store: the claim is what makes it exactly once, whatever happens around it. */
let connection: Connection;
let store: MongoPostsStore;
let recycles: MongoRecycleStore;
let generated = 0;
const db = `t_recycle_${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', db);
  store = new MongoPostsStore(connection);
  recycles = new MongoRecycleStore(connection);
  await syncIndexes(connection);
});
afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
});

const deps = (): RecycleDeps => ({
  store,
  recycles,
  accounts: {
    workspaceSettings: async () => ({ reviewRequired: false, tier: 'pro' }),
    socialAccounts: async () => [{ id: 5, platform: 'mastodon', username: 'eg', disconnected: false }],
    postingSchedule: async () => ({
      id: 1,
      socialAccountId: 5,
      timezone: 'UTC',
      maxPostsPerDay: 3,
      paused: false,
      postingSlots: [0, 1, 2, 3, 4, 5, 6].map((d) => ({ id: d + 1, dayOfWeek: d, timeOfDay: '09:00', enabled: true, source: 'default' })),
    }),
  },
  generation: {
    rewrite: async () => {
      generated += 1;
      await new Promise((resolve) => setImmediate(resolve));
      return `A fresh wording number ${generated}`;
    },
  },
  clock: { now: () => new Date() },
  random: Math.random,
  flushEvents: () => undefined,
  jobs: { send: async () => undefined },
  logger: createLogger('recycle-test', 'silent'),
});

async function postedEvergreen(workspaceId: number): Promise<Post> {
  const [id] = await store.nextIds('posts', 1);
  const now = new Date();
  const post: Post = {
    id: id!,
    workspaceId,
    status: 'posted',
    flexible: false,
    postedAt: now,
    disconnected: false,
    source: 'api',
    recurrenceJitterEnabled: false,
    evergreen: true,
    evergreenVariations: [],
    recurrenceIntervalDays: 2,
    createdAt: now,
    updatedAt: now,
    body: 'The original',
    postContents: [{ id: id! * 10, platform: 'mastodon', body: 'The original', contentType: 'text', position: 0, metadata: {} }],
    postAccounts: [{ id: id! * 10, socialAccountId: 5, platform: 'mastodon', username: 'eg', platformStatus: 'posted' }],
    dryRun: false,
  };
  await store.insert([post], []);
  return post;
}

const seriesOf = async (workspaceId: number, originalId: number) =>
  (await store.list({ workspaceId, statuses: ['scheduled', 'draft'], sort: 'id', sortDirection: 'asc', limit: 100, offset: 0 })).posts.filter((p) => p.recycledFromId === originalId);

describe('recycling a posting (real store)', () => {
  it('creates one post when replicas handle the same posting at once', async () => {
    const original = await postedEvergreen(101);
    const event = { workspaceId: 101, postId: original.id, status: 'posted' };
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => recyclePosting(deps(), event)));
    expect(outcomes).toContain('recycled');
    const series = await seriesOf(101, original.id);
    expect(series).toHaveLength(1);
    expect(series[0]!.scheduledAt!.getTime()).toBeGreaterThanOrEqual(original.postedAt!.getTime() + 2 * 86_400_000);
  });

  it('finishes the claim of a replica that died before storing the post: its id, text and time, and nothing else', async () => {
    const original = await postedEvergreen(102);
    const [newPostId] = await store.nextIds('posts', 1);
    const scheduledAt = new Date(Date.now() + 3 * 86_400_000);
    await recycles.claim({
      id: `${original.id}:${original.postedAt!.getTime()}`,
      workspaceId: 102,
      originalId: original.id,
      sourcePostId: original.id,
      newPostId: newPostId!,
      sequence: 1,
      body: 'Chosen by the replica that died',
      scheduledAt,
      claimedAt: new Date(),
      createdAt: null,
    });
    const before = generated;
    expect(await recyclePosting(deps(), { workspaceId: 102, postId: original.id, status: 'posted' })).toBe('recycled');
    expect(generated).toBe(before);
    const series = await seriesOf(102, original.id);
    expect(series.map((p) => [p.id, p.body, p.scheduledAt?.toISOString()])).toEqual([[newPostId, 'Chosen by the replica that died', scheduledAt.toISOString()]]);
  });

  it('changes nothing when the posting is delivered again, even after its recycled post was deleted', async () => {
    const original = await postedEvergreen(103);
    const event = { workspaceId: 103, postId: original.id, status: 'posted' };
    expect(await recyclePosting(deps(), event)).toBe('recycled');
    const [recycled] = await seriesOf(103, original.id);
    await store.remove(recycled!, { subject: 'posts.post.deleted', msgId: `t-del-${recycled!.id}`, workspaceId: 103, postId: recycled!.id, status: recycled!.status, occurredAt: new Date() });
    expect(await recyclePosting(deps(), event)).toBe('already_recycled');
    expect(await seriesOf(103, original.id)).toEqual([]);
  });

  it('does not recycle a post that is not evergreen, not posted, or another workspace', async () => {
    const original = await postedEvergreen(104);
    expect(await recyclePosting(deps(), { workspaceId: 104, postId: original.id, status: 'failed' })).toBe('not_recycled');
    expect(await recyclePosting(deps(), { workspaceId: 999, postId: original.id, status: 'posted' })).toBe('not_recycled');
    expect(await seriesOf(104, original.id)).toEqual([]);
  });

  it('passes over a posting whose event says it is not recyclable without reading the post; an event without the field reads it', async () => {
    const original = await postedEvergreen(105);
    const reads: number[] = [];
    const counting = () => {
      const d = deps();
      return { ...d, store: Object.assign(Object.create(d.store) as typeof d.store, { get: (ws: number, id: number) => (reads.push(id), d.store.get(ws, id)) }) };
    };
    expect(await recyclePosting(counting(), { workspaceId: 105, postId: original.id, status: 'posted', recyclable: false })).toBe('not_recycled');
    expect(reads).toEqual([]);
    expect(await recyclePosting(counting(), { workspaceId: 105, postId: original.id, status: 'posted' })).toBe('recycled');
    expect(reads[0]).toBe(original.id);
  });
});
