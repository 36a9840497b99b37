/**
 * Every hot query of the posts service is served by an index on the local store, however much history
 * the collections hold: the queries are taken from the wire while the real code runs (scheduler pass,
 * dispatch claims, outbox relay, post by id), then explained. On FerretDB 1.24 over PostgreSQL an
 * equality filter is a JSONB containment that only the GIN companions (scripts/lib/ferretdb-index-
 * companions.sql) can serve; without them each of these is a sequential scan of a growing table.
 */
import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { createLogger } from '@spa/logger';
import { connectMongo, explainReads, readsIssuedBy, sequentialScans, storeBackend, syncIndexes, type Connection, type IssuedRead } from '@spa/mongo';
import { connectNats, PUBLISH_JOBS_STREAM, publishJobSubject, type NatsConnection } from '@spa/nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchDuePosts, DueScan, recordPublishResults } from '../domain/publishing.js';
import type { PostsDeps } from '../domain/ports.js';
import { EventRelay } from '../events/relay.js';
import { publishJobs } from '../events/publish-jobs.js';
import { MongoPostsStore } from './mongo-store.js';

const HISTORY = 3_000;
const workspaceId = 900_000 + Math.floor(Math.random() * 99_999);
const namespace = `t_hot_${randomBytes(3).toString('hex')}`;
let connection: Connection;
let nc: NatsConnection;
let store: MongoPostsStore;
let backend: string;

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_hot_posts_${randomBytes(4).toString('hex')}`);
  store = new MongoPostsStore(connection);
  await syncIndexes(connection);
  backend = await storeBackend(connection);
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'hot-queries-test');
  // History: published posts with their sent outbox entries and dispatch claims.
  const at = new Date(Date.now() - 86_400_000);
  const ids = Array.from({ length: HISTORY }, (_, i) => 1_000_000 + i);
  const db = connection.db!;
  await db.collection<{ _id: number }>('posts').insertMany(
    ids.map((id) => ({
      _id: id,
      workspace_id: workspaceId + (id % 7),
      status: 'posted',
      scheduled_at: at,
      posted_at: at,
      source: 'api',
      created_at: at,
      updated_at: at,
      body: 'old',
      post_contents: [],
      post_accounts: [],
    })),
  );
  await db
    .collection<{ _id: string }>('outbox')
    .insertMany(ids.map((id) => ({ _id: `old-${id}`, subject: 'posts.post.terminal', payload: '', post_id: id, post_updated_at: at, state: 'sent', created_at: at, sent_at: at })));
  await db
    .collection<{ _id: string }>('dispatches')
    .insertMany(ids.map((id) => ({ _id: `${id}:${at.getTime()}`, workspace_id: workspaceId, post_id: id, claimed_at: at, job_sent: true, job_sent_at: at })));
  // Work due now: scheduled posts, a pending outbox entry.
  const due = new Date(Date.now() - 60_000);
  await db.collection<{ _id: number }>('posts').insertMany(
    [1, 2, 3].map((id) => ({
      _id: id,
      workspace_id: workspaceId,
      status: 'scheduled',
      scheduled_at: due,
      source: 'api',
      created_at: due,
      updated_at: due,
      body: 'due',
      flexible: false,
      disconnected: false,
      recurrence_jitter_enabled: false,
      evergreen: false,
      evergreen_variations: [],
      dry_run: false,
      post_contents: [],
      post_accounts: [],
    })),
  );
  await db
    .collection<{ _id: string; [k: string]: unknown }>('outbox')
    .insertOne({ _id: 'pending-1', subject: 'posts.post.updated', payload: '', post_id: 1, post_updated_at: due, state: 'pending', created_at: due });
  // PostgreSQL plans from its statistics: let it see the tables as they are.
  await db.command({ ping: 1 });
}, 120_000);

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
  const jsm = nc && (await jetstreamManager(nc));
  await jsm?.streams.purge(PUBLISH_JOBS_STREAM.name, { filter: publishJobSubject(namespace) }).catch(() => undefined);
  await nc?.drain();
});

async function expectIndexed(reads: IssuedRead[]): Promise<void> {
  expect(reads.length).toBeGreaterThan(0);
  expect(await sequentialScans(connection, reads)).toEqual([]);
}

describe('hot queries of the posts service (explained on FerretDB over PostgreSQL)', () => {
  it('runs on FerretDB over PostgreSQL (the only store whose plans this test reads)', () => {
    expect(backend).toBe('ferretdb-postgresql');
  });

  it('the scheduler pass (due scan, dispatch claims and lookups, transitions) uses indexes', async () => {
    const deps: PostsDeps = {
      store,
      accounts: {
        workspaceSettings: async () => ({ reviewRequired: false }),
        socialAccounts: async () => [],
        postingSchedule: async () => ({ timezone: 'UTC', slots: [], paused: false }),
      } as unknown as PostsDeps['accounts'],
      clock: { now: () => new Date() },
      flushEvents: () => undefined,
      jobs: await publishJobs(nc, namespace),
    };
    let sent = 0;
    const reads = await readsIssuedBy(connection, async () => (sent = await dispatchDuePosts(deps)));
    expect(sent).toBe(3);
    await expectIndexed(reads);
    // The passes between full ones: a post due a moment ago, read by the second it fell due in.
    const scan = new DueScan(3_600_000);
    const now = await store.databaseNow();
    scan.passed(now, undefined, true);
    const due = new Date(now.getTime() - 1_000);
    const posts = connection.db!.collection<{ _id: number; [field: string]: unknown }>('posts');
    const template = await posts.findOne({ _id: 1 });
    await posts.insertOne({ ...template, _id: 4, status: 'scheduled', scheduled_at: due, due_second: Math.floor(due.getTime() / 1000), updated_at: due });
    const windowed = await readsIssuedBy(connection, async () => (sent = await dispatchDuePosts(deps, undefined, scan)));
    expect(sent).toBe(1);
    expect(windowed.some((r) => r.collection === 'posts' && 'due_second' in r.filter)).toBe(true);
    await expectIndexed(windowed);
  });

  it("the publisher's reads and writes of a post name `_id` as their only indexed field, and read one index", async () => {
    // With `workspace_id` or `status` beside `_id`, PostgreSQL may serve the containment from that field's
    // GIN companion while its statistics lag behind a burst of posts (every post of the workspace read per
    // lookup: 835 rows per published target in the bench). With `_id` alone the plan cannot go wrong.
    const indexed = new Set(store.models.Post.schema.indexes().flatMap(([fields]) => Object.keys(fields)));
    const deps = { store, clock: { now: () => new Date() }, flushEvents: () => undefined } as unknown as PostsDeps;
    let ended = '';
    const reads = await readsIssuedBy(connection, async () => {
      // The scheduler's move, the publisher's read, its results.
      expect(await store.startPublishing([(await store.get(workspaceId, 3))!], new Date())).toBe(1);
      ended = (await recordPublishResults(deps, workspaceId, 3, [])).status;
    });
    expect(ended).toBe('posted'); // the post has no targets: every one of them published
    const onPosts = reads.filter((r) => r.collection === 'posts');
    expect(onPosts.length).toBeGreaterThan(0);
    for (const read of onPosts) expect(Object.keys(read.filter).filter((f) => indexed.has(f) || f === '_id')).toEqual(['_id']);
    for (const { plan } of await explainReads(connection, onPosts)) expect(plan.indexes).toHaveLength(1);
  });

  it('a post by id within its workspace uses an index', async () => {
    const reads = await readsIssuedBy(connection, () => store.get(workspaceId, 2));
    await expectIndexed(reads);
  });

  it('a list (index snapshots, bodies, deltas, the page by id), its upkeep, compaction and backfill use indexes', async () => {
    // The history workspace (HISTORY / 7 posts stored before the index): backfilled, then listed.
    const ws = workspaceId + 1;
    const backfill = await readsIssuedBy(connection, () => store.listIndex.backfill(ws));
    // The backfill reads the workspace's posts once, by workspace (an indexed equality, whole set wanted).
    await expectIndexed(backfill);
    const q = { workspaceId: ws, statuses: ['posted' as const], sort: 'scheduled_at' as const, sortDirection: 'asc' as const, limit: 20, offset: 0 };
    let listed = 0;
    const list = await readsIssuedBy(connection, async () => (listed = (await store.list(q)).posts.length));
    expect(listed).toBe(20);
    await expectIndexed(list);
    const [post] = (await store.list(q)).posts;
    const upkeep = await readsIssuedBy(connection, async () => {
      await store.transition(ws, post!.id, 'posted', { status: 'failed', updatedAt: new Date() });
      await store.listIndex.compact(ws);
    });
    await expectIndexed(upkeep);
  });

  it('the outbox relay (pending entries, the post of each, removing the published ones) uses indexes', async () => {
    const relay = new EventRelay({ models: store.models, listIndex: store.listIndex, nc, logger: createLogger('hot-queries-test', 'error') });
    const reads = await readsIssuedBy(connection, async () => {
      relay.flush();
      await relay.stop();
    });
    await expectIndexed(reads);
  });
});
