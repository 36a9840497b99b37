/**
 * The post list index on the real store: a list answers exactly what the store's own query answers
 * (random posts, filters, sorts and offsets), counts stay exact under concurrent writes, a crash between
 * a post write and its index entry is repaired by the outbox relay, and a workspace stored before the
 * index existed is backfilled.
 */
import { randomBytes } from 'node:crypto';
import { createLogger } from '@spa/logger';
import { connectMongo, readsIssuedBy, syncIndexes, type Connection } from '@spa/mongo';
import { connectNats, type NatsConnection } from '@spa/nats';
import { POST_STATUSES, type PostStatus } from '@spa/vocabulary';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post, PostEvent } from '../domain/model.js';
import type { ListPostsQuery } from '../domain/ports.js';
import { EventRelay } from '../events/relay.js';
import { PostListIndex, type PostsCollection } from './list-index.js';
import { MongoPostsStore } from './mongo-store.js';
import { toPost, type PostDoc } from './post-docs.js';
import { PostLists } from './post-lists.js';

let connection: Connection;
let store: MongoPostsStore;
let reference: PostLists<PostDoc>;
let nc: NatsConnection;
const dbName = `t_list_index_${randomBytes(4).toString('hex')}`;
const others: Connection[] = [];
/** Another replica of the posts service: its own connection, models and index, the same database. */
async function replica(): Promise<MongoPostsStore> {
  const c = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', dbName);
  others.push(c);
  return new MongoPostsStore(c);
}
const base = 700_000 + Math.floor(Math.random() * 99_999);
let nextWorkspace = 0;
const workspace = () => base + 1000 * nextWorkspace++;

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', dbName);
  store = new MongoPostsStore(connection);
  await syncIndexes(connection);
  reference = new PostLists(store.models.Post as never, store.listIndex, toPost);
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'list-index-test');
});
afterAll(async () => {
  for (const c of others) await c.close();
  await connection?.dropDatabase();
  await connection?.close();
  await nc?.drain();
});

// A small seeded generator, so a failure can be replayed.
let seed = 12345;
const rand = (n: number): number => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
};
const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]!;
const PLATFORMS = ['twitter', 'mastodon', 'bluesky', 'linkedin'] as const;
const T0 = Date.UTC(2026, 0, 1);
// Few distinct times, so sorts meet ties and the id decides.
const someTime = (): Date => new Date(T0 + rand(12) * 3_600_000);

function randomPost(id: number, workspaceId: number): Post {
  const at = someTime();
  const platforms = PLATFORMS.filter(() => rand(3) === 0);
  return {
    id,
    workspaceId,
    status: pick(POST_STATUSES),
    flexible: false,
    scheduledAt: rand(4) ? someTime() : undefined,
    postedAt: rand(2) ? someTime() : undefined,
    disconnected: false,
    source: pick(['api', 'ui', 'plan']),
    recurrenceJitterEnabled: false,
    evergreen: false,
    evergreenVariations: [],
    recurrenceIntervalDays: 7,
    createdAt: at,
    updatedAt: new Date(at.getTime() + rand(1000)),
    body: `post ${id}`,
    dryRun: false,
    postContents: platforms.slice(0, 1).map((platform, i) => ({ id: id * 10 + i, platform, body: '', contentType: 'text', position: 0, metadata: {} })),
    postAccounts: platforms.slice(1).map((platform, i) => ({ id: id * 10 + i, socialAccountId: 1, platform, username: 'u' })),
  } as Post;
}

const event = (post: Post, subject: PostEvent['subject'], tag = randomBytes(4).toString('hex')): PostEvent => ({
  subject,
  msgId: `t-${post.id}-${tag}`,
  workspaceId: post.workspaceId,
  postId: post.id,
  status: post.status,
  occurredAt: new Date(),
});

function randomQuery(workspaceId: number): ListPostsQuery {
  const statuses = POST_STATUSES.filter(() => rand(2) === 0);
  return {
    workspaceId,
    statuses: statuses.length ? statuses : [pick(POST_STATUSES)],
    source: rand(3) ? undefined : pick(['api', 'ui', 'plan', 'none']),
    scheduledAfter: rand(3) ? undefined : someTime(),
    scheduledBefore: rand(3) ? undefined : someTime(),
    platform: rand(3) ? undefined : pick(PLATFORMS),
    sort: pick(['scheduled_at', 'created_at', 'posted_at', 'id'] as const),
    sortDirection: pick(['asc', 'desc'] as const),
    limit: pick([1, 5, 20, 200]),
    offset: pick([0, 0, 3, 17, 150]),
  };
}

const page = (r: { posts: Post[]; totalCount: number; counts: Partial<Record<PostStatus, number>> }) => ({
  ids: r.posts.map((p) => p.id),
  totalCount: r.totalCount,
  counts: r.counts,
});

async function expectSameAsQuery(workspaceId: number, queries: number): Promise<void> {
  for (let i = 0; i < queries; i++) {
    const q = randomQuery(workspaceId);
    expect(page(await store.list(q)), JSON.stringify(q)).toEqual(page(await reference.byQuery(q)));
  }
}

describe('post list index (real store)', () => {
  it('answers every filter, sort and offset exactly as the store query, through creates, edits, transitions and deletes', async () => {
    const ws = workspace();
    await store.listIndex.backfill(ws); // a new workspace: nothing to backfill, the index is built
    const ids = await store.nextIds('posts', 300);
    let posts = ids.map((id) => randomPost(id, ws));
    await store.insert(posts.slice(0, 200), []);
    for (const p of posts.slice(200)) await store.insertOnce(p, event(p, 'posts.post.created'));
    await expectSameAsQuery(ws, 25);
    // Edits, transitions and deletes; then a compaction folds the deltas into snapshots.
    for (const p of posts.slice(0, 60)) {
      const next = { ...randomPost(p.id, ws), createdAt: p.createdAt, updatedAt: new Date(p.updatedAt.getTime() + 5_000) };
      expect(await store.replace(p, next, event(next, 'posts.post.updated'))).not.toBeNull();
    }
    for (const p of posts.slice(60, 90)) expect(await store.transition(ws, p.id, p.status, { status: 'failed', updatedAt: new Date(p.updatedAt.getTime() + 9_000) })).not.toBeNull();
    for (const p of posts.slice(90, 130)) expect(await store.remove(p, event(p, 'posts.post.deleted'))).toBe(true);
    await expectSameAsQuery(ws, 25);
    await store.listIndex.compact(ws);
    const state = await store.listIndex.read(ws);
    expect(state.latest.size).toBeGreaterThan(0);
    await expectSameAsQuery(ws, 25);
    // Past the grace period a compaction deletes the deltas and snapshots the new snapshots superseded.
    const later = new PostListIndex({ ...store.models, Post: store.models.Post as unknown as PostsCollection }, undefined, { now: () => new Date(Date.now() + 120_000) });
    await store.insertOnce(posts[299]!, event(posts[299]!, 'posts.post.created')); // already there: no change
    await later.compact(ws);
    expect((await store.listIndex.read(ws)).deltas).toEqual([]);
    await expectSameAsQuery(ws, 25);
    posts = [...posts.slice(0, 90), ...posts.slice(130)];
    expect((await store.list({ ...randomQuery(ws), statuses: [...POST_STATUSES], source: undefined, platform: undefined, scheduledAfter: undefined, scheduledBefore: undefined })).totalCount).toBe(
      posts.length,
    );
  });

  it('keeps counts exact under concurrent creates, edits and deletes (several replicas, each its own index)', async () => {
    const ws = workspace();
    await store.listIndex.backfill(ws);
    const replicas = [store, await replica(), await replica()];
    const ids = await store.nextIds('posts', 120);
    const posts = ids.map((id) => ({ ...randomPost(id, ws), status: 'draft' as const }));
    await Promise.all(posts.map((p, i) => replicas[i % 3]!.insertOnce(p, event(p, 'posts.post.created'))));
    // At once: a third scheduled, a third deleted, the rest edited, through different replicas.
    await Promise.all(
      posts.map(async (p, i) => {
        const r = replicas[(i + 1) % 3]!;
        if (i % 3 === 0) expect(await r.transition(ws, p.id, 'draft', { status: 'scheduled', updatedAt: new Date(p.updatedAt.getTime() + 1) })).not.toBeNull();
        else if (i % 3 === 1) expect(await r.remove(p, event(p, 'posts.post.deleted'))).toBe(true);
        else expect(await r.replace(p, { ...p, body: 'edited', updatedAt: new Date(p.updatedAt.getTime() + 1) }, event(p, 'posts.post.updated'))).not.toBeNull();
        // A compaction racing the writes (replicas compact on their own).
        if (i % 20 === 0) await replicas[i % 3]!.listIndex.compact(ws);
      }),
    );
    const all: ListPostsQuery = { workspaceId: ws, statuses: [...POST_STATUSES], sort: 'id', sortDirection: 'asc', limit: 200, offset: 0 };
    const listed = await store.list(all);
    expect(listed.counts).toEqual({ scheduled: 40, draft: 40 });
    expect(listed.totalCount).toBe(80);
    expect(page(listed)).toEqual(page(await reference.byQuery(all)));
    await Promise.all(replicas.map((r) => r.listIndex.compact(ws)));
    expect(page(await store.list(all))).toEqual(page(await reference.byQuery(all)));
  });

  it('repairs the entry of a write whose process crashed before recording it, from the outbox relay', async () => {
    const ws = workspace();
    await store.listIndex.backfill(ws);
    const [created, edited, deleted] = (await store.nextIds('posts', 3)).map((id) => ({ ...randomPost(id, ws), status: 'draft' as const }));
    await store.insert([edited!, deleted!], []);
    // As if the process died right after each post write: the outbox entry and the post landed, the index entry did not.
    const crashed = await replica();
    crashed.listIndex.record = async () => {
      throw new Error('crashed');
    };
    const next = { ...edited!, status: 'scheduled' as const, updatedAt: new Date(edited!.updatedAt.getTime() + 1) };
    await expect(crashed.insertOnce(created!, event(created!, 'posts.post.created'))).rejects.toThrow('crashed');
    await expect(crashed.replace(edited!, next, event(next, 'posts.post.updated'))).rejects.toThrow('crashed');
    await expect(crashed.remove(deleted!, event(deleted!, 'posts.post.deleted'))).rejects.toThrow('crashed');
    const all: ListPostsQuery = { workspaceId: ws, statuses: [...POST_STATUSES], sort: 'id', sortDirection: 'asc', limit: 200, offset: 0 };
    expect(page(await store.list(all))).not.toEqual(page(await reference.byQuery(all)));

    const repairedWorkspaces = new Set<number>();
    const relay = new EventRelay({
      models: store.models,
      listIndex: store.listIndex,
      nc,
      logger: createLogger('list-index-test', 'silent'),
      onListRepaired: async (w) => void repairedWorkspaces.add(w),
    });
    await relay.start(60_000);
    await relay.stop();
    // The list cache is told (a replica's cached pages of this workspace are stale).
    expect(repairedWorkspaces.has(ws)).toBe(true);
    const repaired = await store.list(all);
    expect(page(repaired)).toEqual(page(await reference.byQuery(all)));
    expect(repaired.counts).toEqual({ draft: 1, scheduled: 1 });
    // A stale repair (the relay going over the same entries again, or deriving an older version) changes nothing.
    await store.listIndex.record(ws, [{ id: deleted!.id, version: deleted!.updatedAt.getTime(), status: 'draft', source: 'api', platforms: [], scheduledAt: null, createdAt: 0, postedAt: null }]);
    expect(page(await store.list(all))).toEqual(page(repaired));
  });

  it("answers a workspace's first list right after an import of thousands of posts from its index, built at the first write, reading a delta per write", async () => {
    const ws = workspace();
    // An import: 2,000 posts in bulk writes of 100, nothing listed before.
    for (let i = 0; i < 20; i++)
      await store.insert(
        (await store.nextIds('posts', 100)).map((id) => randomPost(id, ws)),
        [],
      );
    await store.listIndex.settled();
    const state = await store.listIndex.read(ws);
    expect(state.built).toBe(true);
    // A delta per bulk write (or fewer, once compacted), not one per post.
    expect(state.deltas.length).toBeLessThanOrEqual(20);
    const q: ListPostsQuery = { workspaceId: ws, statuses: ['draft', 'scheduled', 'pending_review'], sort: 'created_at', sortDirection: 'desc', limit: 100, offset: 0 };
    let listed: Awaited<ReturnType<typeof store.list>> | undefined;
    const reads = await readsIssuedBy(connection, async () => void (listed = await store.list(q)));
    // Never the store's own query over the workspace's posts (a 503 at 10,000 posts): each post of the page by `_id` alone.
    const postReads = reads.filter((r) => r.collection === 'posts');
    expect(postReads.length).toBe(listed!.posts.length);
    expect(postReads.every((r) => Object.keys(r.filter).join() === '_id')).toBe(true);
    expect(page(listed!)).toEqual(page(await reference.byQuery(q)));
    await expectSameAsQuery(ws, 8);
  }, 120_000);

  it('moves the list version on for a write whose process died after recording its entry, before telling the list caches', async () => {
    const ws = workspace();
    await store.listIndex.backfill(ws);
    const [post] = (await store.nextIds('posts', 1)).map((id) => ({ ...randomPost(id, ws), status: 'draft' as const }));
    // The post, its outbox entry and its list entry landed; the process was killed before its version bump (CachedPostsStore),
    // so pages cached before the write (the gateway's, other replicas') still say the list is as it was.
    const died = await replica();
    expect(await died.insertOnce(post!, event(post!, 'posts.post.created'))).toBe(true);
    const bumped = new Set<number>();
    // The replacement process's relay: the entry's write landed, and nothing here saw it land.
    const relay = new EventRelay({ models: store.models, listIndex: store.listIndex, nc, logger: createLogger('list-index-test', 'silent'), onListRepaired: async (w) => void bumped.add(w) });
    await relay.start(60_000);
    await relay.stop();
    // Its entry was already there (nothing to repair), yet the caches must read the list afresh: else page 1 comes
    // from before the post and page 2 after it, and paging repeats one post and skips another.
    expect(bumped.has(ws)).toBe(true);
  });

  it('backfills a workspace whose posts were stored before the index existed, once, with several replicas at it', async () => {
    const ws = workspace();
    const ids = await store.nextIds('posts', 1_200);
    const docs = ids.map((id) => randomPost(id, ws));
    // Stored straight into the collection, as the posts of a store that predates the index.
    const plain = await replica();
    plain.listIndex.record = async () => false;
    await plain.insert(docs, []);
    const q: ListPostsQuery = { workspaceId: ws, statuses: ['scheduled', 'draft'], sort: 'scheduled_at', sortDirection: 'asc', limit: 20, offset: 0 };
    // Not built yet: the store's query answers, and the build starts in the background.
    expect(page(await store.list(q))).toEqual(page(await reference.byQuery(q)));
    const other = new PostListIndex({ ...store.models, Post: store.models.Post as unknown as PostsCollection });
    await Promise.all([store.listIndex.settled(), other.backfill(ws), store.listIndex.backfill(ws)]);
    const state = await store.listIndex.read(ws);
    expect(state.built).toBe(true);
    expect(state.latest.size).toBe(new Set(ids.map((id) => Math.floor(id / 1000))).size);
    expect(state.latest.size).toBeGreaterThan(1);
    await expectSameAsQuery(ws, 8);
  }, 240_000);
});
