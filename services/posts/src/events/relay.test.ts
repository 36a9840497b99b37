import { randomBytes } from 'node:crypto';
import { jetstreamManager, AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import { PostCreated, PostReviewed } from '@spa/contracts/events/v1/posts';
import { createLogger } from '@spa/logger';
import { connectMongo, readsIssuedBy, syncIndexes, type Connection } from '@spa/mongo';
import { connectNats, DEPLOYMENT_HEADER, fromOtherDeployment, jetstream, POSTS_STREAM, type NatsConnection } from '@spa/nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvePost } from '../domain/review-post.js';
import { createPost } from '../domain/create-post.js';
import type { PostEvent } from '../domain/model.js';
import type { AccountsPort, PostsDeps } from '../domain/ports.js';
import { MongoPostsStore } from '../data/mongo-store.js';
import { EventRelay } from './relay.js';

let connection: Connection;
let nc: NatsConnection;
let store: MongoPostsStore;
const workspaceId = 900_000 + Math.floor(Math.random() * 99_999);

// The accounts service's answers, given here as plain data: this test is about the outbox.
const accounts: AccountsPort = {
  workspaceSettings: async () => ({ reviewRequired: true }),
  socialAccounts: async () => [],
  postingSchedule: async () => {
    throw new Error('not used by this test');
  },
};

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_relay_${randomBytes(4).toString('hex')}`);
  store = new MongoPostsStore(connection);
  await syncIndexes(connection);
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'relay-test');
});
afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
  await nc.drain();
});

function decodeOrSkip<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch {
    return undefined;
  }
}

async function eventsFor(postId: number): Promise<Array<{ subject: string; status: string; deployment?: string }>> {
  const jsm = await jetstreamManager(nc);
  const name = `t_relay_${randomBytes(3).toString('hex')}`;
  await jsm.consumers.add(POSTS_STREAM.name, { name, ack_policy: AckPolicy.None, deliver_policy: DeliverPolicy.All, filter_subject: 'posts.post.>' });
  const consumer = await jetstream(nc).consumers.get(POSTS_STREAM.name, name);
  const out: Array<{ subject: string; status: string; deployment?: string }> = [];
  const info = await jsm.streams.info(POSTS_STREAM.name);
  const batch = await consumer.fetch({ max_messages: info.state.messages, expires: 2_000 });
  for await (const m of batch) {
    // The stream is shared with every other test and run on this NATS server: a message this decoder cannot read is not ours.
    const decoded = decodeOrSkip(() => (m.subject === 'posts.post.reviewed' ? PostReviewed.decode(m.data) : PostCreated.decode(m.data)));
    if (!decoded) continue;
    const deployment = m.headers?.get(DEPLOYMENT_HEADER);
    if (decoded.postId === postId && decoded.workspaceId === workspaceId) out.push({ subject: m.subject, status: decoded.status, ...(deployment ? { deployment } : {}) });
  }
  await jsm.consumers.delete(POSTS_STREAM.name, name);
  return out;
}

describe('event outbox and relay (real store and NATS)', () => {
  it('publishes created and reviewed events once each, named after the deployment, and clears the outbox', async () => {
    const relay = new EventRelay({ models: store.models, listIndex: store.listIndex, nc, logger: createLogger('relay-test', 'silent'), deployment: 'relay-test-ns' });
    const deps: PostsDeps = { store, accounts, clock: { now: () => new Date() }, flushEvents: () => relay.flush(), jobs: { send: async () => undefined } };
    // Written while the relay is not running: the events wait in the outbox with the post.
    const post = await createPost(deps, { workspaceId, body: 'hello', postContents: [], socialAccountIds: [], source: 'api' });
    expect(post.status).toBe('pending_review');
    const waiting = await store.models.Outbox.find({ post_id: post.id }).lean();
    expect(waiting.map((e) => [e._id, e.state])).toEqual([[`post-created-${post.id}-${post.createdAt.getTime()}`, 'pending']]);

    await relay.start(60_000);
    await approvePost(deps, workspaceId, post.id);
    // Published, then removed.
    await expect.poll(async () => (await store.models.Outbox.find({ post_id: post.id }).lean()).length, { timeout: 5_000 }).toBe(0);
    relay.flush();
    await relay.stop();

    expect(await eventsFor(post.id)).toEqual([
      { subject: 'posts.post.created', status: 'pending_review', deployment: 'relay-test-ns' },
      { subject: 'posts.post.reviewed', status: 'draft', deployment: 'relay-test-ns' },
    ]);
    // A consumer of this deployment takes them; one of another deployment skips them.
    const sent = { headers: { get: (k: string) => (k === DEPLOYMENT_HEADER ? 'relay-test-ns' : '') } };
    expect([fromOtherDeployment(sent, 'relay-test-ns'), fromOtherDeployment(sent, 'elsewhere'), fromOtherDeployment({}, 'elsewhere')]).toEqual([false, true, false]);
  });
});

describe('an event whose change never landed', () => {
  it('is not published, and is dropped after the grace period', async () => {
    let now = new Date();
    const relay = new EventRelay({ models: store.models, listIndex: store.listIndex, nc, logger: createLogger('relay-test', 'silent'), clock: { now: () => now } });
    const deps: PostsDeps = { store, accounts, clock: { now: () => new Date() }, flushEvents: () => undefined, jobs: { send: async () => undefined } };
    const post = await createPost(deps, { workspaceId, body: 'x', postContents: [], socialAccountIds: [], source: 'api' });
    // As if a process crashed between writing an outbox entry and writing the change it announces.
    await store.models.Outbox.create({
      _id: `post-reviewed-${post.id}-never`,
      subject: 'posts.post.reviewed',
      payload: 'AA==',
      post_id: post.id,
      post_updated_at: new Date(Date.now() + 1_000),
      state: 'pending',
      created_at: new Date(),
    });
    await relay.start(60_000);
    await relay.stop();
    expect((await store.models.Outbox.findById(`post-reviewed-${post.id}-never`).lean())?.state).toBe('pending');
    now = new Date(Date.now() + 120_000);
    relay.flush();
    await relay.stop();
    expect((await store.models.Outbox.findById(`post-reviewed-${post.id}-never`).lean())?.state).toBe('abandoned');
    expect((await eventsFor(post.id)).map((e) => e.subject)).toEqual(['posts.post.created']);
  });
});

describe('an event whose write this process saw land', () => {
  it('is published without reading its post again; one from another process (or before a crash) is checked', async () => {
    const relay = new EventRelay({ models: store.models, listIndex: store.listIndex, landed: store.landed, nc, logger: createLogger('relay-test', 'silent') });
    const deps: PostsDeps = { store, accounts, clock: { now: () => new Date() }, flushEvents: () => undefined, jobs: { send: async () => undefined } };
    const seen = await createPost(deps, { workspaceId, body: 'landed here', postContents: [], socialAccountIds: [], source: 'api' });
    // As if another process (or this one before a restart) had written it: not seen landing here.
    const unseen = await createPost(deps, { workspaceId, body: 'landed elsewhere', postContents: [], socialAccountIds: [], source: 'api' });
    store.landed.delete(`post-created-${unseen.id}-${unseen.createdAt.getTime()}`);
    const reads = await readsIssuedBy(connection, async () => {
      relay.flush();
      await relay.stop();
    });
    const postReads = reads.filter((r) => r.collection === 'posts').map((r) => r.filter._id);
    expect(postReads).toEqual([unseen.id]);
    expect((await eventsFor(seen.id)).map((e) => e.subject)).toEqual(['posts.post.created']);
    expect((await eventsFor(unseen.id)).map((e) => e.subject)).toEqual(['posts.post.created']);
  });

  it('is left alone while its write is under way here: its post is not read, nor is it dropped, however old', async () => {
    let now = new Date();
    const relay = new EventRelay({ models: store.models, listIndex: store.listIndex, landed: store.landed, nc, logger: createLogger('relay-test', 'silent'), clock: { now: () => now } });
    const deps: PostsDeps = { store, accounts, clock: { now: () => new Date() }, flushEvents: () => undefined, jobs: { send: async () => undefined } };
    const post = await createPost(deps, { workspaceId, body: 'under way', postContents: [], socialAccountIds: [], source: 'api' });
    const id = `post-reviewed-${post.id}-underway`;
    let land!: () => void;
    const write = store.landed.during([id], async () => {
      // The write's own steps: the entry queued, then the change (held here until `land`), then landed.
      await store.models.Outbox.create({
        _id: id,
        subject: 'posts.post.reviewed',
        payload: Buffer.from(PostReviewed.encode({ workspaceId, postId: post.id, status: 'scheduled', occurredAt: now.toISOString(), reviewAction: 'approve' }).finish()).toString('base64'),
        post_id: post.id,
        post_updated_at: post.updatedAt,
        state: 'pending',
        created_at: now,
      });
      await new Promise<void>((resolve) => (land = resolve));
      store.landed.add(id);
    });
    await expect.poll(() => store.models.Outbox.exists({ _id: id })).toBeTruthy();
    now = new Date(Date.now() + 120_000); // past the grace period after which an unlanded entry is dropped
    const reads = await readsIssuedBy(connection, async () => {
      relay.flush();
      await relay.stop();
    });
    expect(reads.filter((r) => r.collection === 'posts')).toEqual([]);
    expect((await store.models.Outbox.findById(id).lean())?.state).toBe('pending');
    land();
    await write;
    relay.flush();
    await relay.stop();
    expect(await store.models.Outbox.findById(id).lean()).toBeNull(); // published, then removed
  });
});

describe('a write made once, repeated after its event was published (a retried recycle)', () => {
  it('changes nothing and leaves no entry to announce it again', async () => {
    const relay = new EventRelay({ models: store.models, listIndex: store.listIndex, landed: store.landed, nc, logger: createLogger('relay-test', 'silent') });
    const deps: PostsDeps = { store, accounts, clock: { now: () => new Date() }, flushEvents: () => undefined, jobs: { send: async () => undefined } };
    const template = await createPost(deps, { workspaceId, body: 'made once', postContents: [], socialAccountIds: [], source: 'api' });
    const [id] = await store.nextIds('posts', 1);
    const post = { ...template, id: id! };
    const event: PostEvent = { subject: 'posts.post.created', msgId: `post-created-${id}-once`, workspaceId, postId: id!, status: post.status, occurredAt: post.createdAt };
    expect(await store.insertOnce(post, event)).toBe(true);
    relay.flush();
    await relay.stop();
    expect(await store.models.Outbox.findById(event.msgId).lean()).toBeNull(); // published, then removed
    expect(await store.insertOnce(post, event)).toBe(false);
    expect(await store.models.Outbox.findById(event.msgId).lean()).toBeNull();
  });
});
