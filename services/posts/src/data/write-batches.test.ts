/**
 * The posts service's writes made at the same time share store commands (group commit): the outbox
 * entries of concurrent post writes go in one insert, the list index deltas of concurrent records in
 * one insert, each caller still learning its own answer.
 */
import { randomBytes } from 'node:crypto';
import { commandsIssuedBy, connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post, PostEvent } from '../domain/model.js';
import { aPost } from './__fixtures__/posts.js';
import type { ListEntry } from './list-entries.js';
import { MongoPostsStore } from './mongo-store.js';

const workspaceId = 42;
let connection: Connection;
let store: MongoPostsStore;

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_posts_batches_${randomBytes(4).toString('hex')}`);
  store = new MongoPostsStore(connection);
  await syncIndexes(connection);
}, 60_000);

afterAll(async () => {
  await store?.listIndex.settled();
  await connection?.dropDatabase();
  await connection?.close();
});

const at = new Date('2026-11-26T12:00:00Z');
const post = (id: number): Post => aPost({ id, workspaceId, scheduledAt: at, updatedAt: at });
const terminal = (p: Post, occurredAt: Date): PostEvent => ({ subject: 'posts.post.terminal', msgId: `t-${p.id}-${occurredAt.getTime()}`, workspaceId, postId: p.id, status: 'posted', occurredAt });
/** The list entries of `n` scheduled posts, ids from `from` on. */
const entries = (from: number, n: number): ListEntry[] =>
  Array.from({ length: n }, (_, i) => ({
    id: from + i,
    version: at.getTime(),
    status: 'scheduled',
    source: 'api',
    platforms: [],
    scheduledAt: at.getTime(),
    createdAt: at.getTime(),
    postedAt: null,
  }));

describe('posts write path: group commit', () => {
  it('concurrent post writes insert their outbox entries in one command, and every write lands with its event', async () => {
    const posts = Array.from({ length: 8 }, (_, i) => post(100 + i));
    await store.insert(posts, []);
    const later = new Date(at.getTime() + 1_000);
    let saved: Array<Post | null> = [];
    const inserts = await commandsIssuedBy(connection, 'insert', async () => {
      saved = await Promise.all(posts.map((p) => store.replace(p, { ...p, status: 'posted', postedAt: later, updatedAt: later }, terminal(p, later))));
    });
    expect(inserts.filter((c) => c === 'outbox')).toEqual(['outbox']);
    expect(saved.map((p) => p?.status)).toEqual(posts.map(() => 'posted'));
    const pending = await store.models.Outbox.find({ state: 'pending', subject: 'posts.post.terminal' }).lean();
    expect(pending.map((e) => e.post_id).sort()).toEqual(posts.map((p) => p.id));
    // A write that lost its race (the post changed meanwhile) leaves no event behind.
    expect(await store.replace(posts[0]!, { ...posts[0]!, status: 'failed', updatedAt: new Date(later.getTime() + 1) }, terminal(posts[0]!, new Date(later.getTime() + 1)))).toBeNull();
    expect(await store.models.Outbox.countDocuments({ post_id: posts[0]!.id, state: 'pending' })).toBe(1);
  });

  it('concurrent list records insert their deltas in one command, each answering whether it was new', async () => {
    const batch = entries(200, 4);
    let answers: boolean[] = [];
    const inserts = await commandsIssuedBy(connection, 'insert', async () => {
      answers = await Promise.all([...batch.map((e) => store.listIndex.record(workspaceId, [e])), store.listIndex.record(workspaceId, [batch[0]!])]);
    });
    expect(inserts).toEqual(['post_list_deltas']);
    expect(answers).toEqual([true, true, true, true, false]);
  });

  it('compacts after 200 writes, or after as many as the deltas its last compaction read: a burst is not read again and again', async () => {
    const ws = 43;
    await store.listIndex.backfill(ws); // an empty workspace: built at once
    const deltaReads = (work: () => Promise<unknown>) =>
      commandsIssuedBy(connection, 'find', async () => {
        await work();
        await store.listIndex.settled();
      }).then((finds) => finds.filter((c) => c === 'post_list_deltas').length);
    // 250 writes: past 200, so a compaction reads the 250 deltas (they stay for the grace period).
    expect(await deltaReads(() => store.listIndex.record(ws, entries(10_000, 250)))).toBe(1);
    // 220 more: past 200 but not past the 250 the last compaction read: no compaction.
    expect(await deltaReads(() => store.listIndex.record(ws, entries(20_000, 220)))).toBe(0);
    // 40 more: 260 since the last compaction: the next one.
    expect(await deltaReads(() => store.listIndex.record(ws, entries(30_000, 40)))).toBe(1);
  });
});
