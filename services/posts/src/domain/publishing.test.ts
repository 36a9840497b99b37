/**
 * The scheduler's dispatch on the real store and NATS: a batch of due posts costs the same few store
 * commands as one post, two dispatchers racing hand each post over once, and a claim whose holder died
 * before sending its job is finished after the lease (and one held by a live dispatcher is not). Then the
 * publisher's results: recorded on the post as it was just moved (its job carries it) or read, or on what is
 * stored if it changed since.
 */
import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { postStatusCodec } from '@spa/contracts/codecs';
import { PublishJob } from '@spa/contracts/events/v1/jobs';
import { PostTerminal } from '@spa/contracts/events/v1/publishing';
import { connectMongo, readsIssuedBy, syncIndexes, type Connection } from '@spa/mongo';
import { connectNats, PUBLISH_JOBS_STREAM, publishJobSubject, type NatsConnection } from '@spa/nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEntry, mergeEntry, type ListEntry } from '../data/list-entries.js';
import { deltaEntries, type ListDeltaDoc } from '../data/list-models.js';
import { MongoPostsStore } from '../data/mongo-store.js';
import { publishJobs } from '../events/publish-jobs.js';
import type { PostsDeps } from './ports.js';
import { approvePost } from './review-post.js';
import { dispatch, DISPATCH_LEASE_MS, dispatchDuePosts, DueScan, recordPublishResults } from './publishing.js';

const workspaceId = 800_000 + Math.floor(Math.random() * 99_999);
const namespace = `t_dispatch_${randomBytes(3).toString('hex')}`;
let connection: Connection;
let nc: NatsConnection;
let store: MongoPostsStore;
let nextId = 1;
/** Every job sent, by dispatch id (through the real JetStream port). */
const sent: string[] = [];

async function dispatcher(): Promise<PostsDeps> {
  const jobs = await publishJobs(nc, namespace);
  return {
    store,
    accounts: {} as PostsDeps['accounts'],
    clock: { now: () => new Date() },
    flushEvents: () => undefined,
    jobs: { send: async (job) => (await jobs.send(job), void sent.push(job.dispatchId)) },
  };
}

/**
 * Due posts written straight into the store (a minute ago, or at `due`); answers their ids. Without `due`
 * they have no `due_second`, as posts stored before it existed: only a full due scan finds them.
 */
async function duePosts(count: number, status = 'scheduled', at?: Date): Promise<number[]> {
  const due = at ?? new Date(Date.now() - 60_000);
  const ids = Array.from({ length: count }, () => nextId++);
  await connection.db!.collection<{ _id: number }>('posts').insertMany(
    ids.map((id) => ({
      _id: id,
      workspace_id: workspaceId,
      status,
      scheduled_at: due,
      ...(at ? { due_second: Math.floor(at.getTime() / 1000) } : {}),
      source: 'api',
      created_at: due,
      updated_at: due,
      body: `due ${id}`,
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
  return ids;
}

/** The last `count` jobs this file's dispatchers sent, as the publisher receives them (other files share the stream). */
async function lastJobs(count: number): Promise<PublishJob[]> {
  const jsm = await jetstreamManager(nc);
  const jobs: PublishJob[] = [];
  for (let seq = (await jsm.streams.info(PUBLISH_JOBS_STREAM.name)).state.last_seq; seq > 0 && jobs.length < count; seq--) {
    const message = await jsm.streams.getMessage(PUBLISH_JOBS_STREAM.name, { seq }).catch(() => null);
    if (message?.subject === publishJobSubject(namespace)) jobs.push(PublishJob.decode(message.data));
  }
  return jobs;
}

const statusOf = async (id: number) => (await store.get(workspaceId, id))?.status;
const dispatchIdOf = async (id: number) => `${id}:${(await store.get(workspaceId, id))!.scheduledAt!.getTime()}`;

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_dispatch_${randomBytes(4).toString('hex')}`);
  store = new MongoPostsStore(connection);
  await syncIndexes(connection);
  // The workspace's list index is built (as after its first write), so a pass's commands are the pass's own.
  await store.listIndex.backfill(workspaceId);
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'dispatch-test');
}, 60_000);

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
  const jsm = nc && (await jetstreamManager(nc));
  await jsm?.streams.purge(PUBLISH_JOBS_STREAM.name, { filter: publishJobSubject(namespace) }).catch(() => undefined);
  await nc?.drain();
});

describe('dispatching due posts in batches', () => {
  it('two dispatchers racing over 60 due posts hand each over once, in a few store commands per pass', async () => {
    const ids = await duePosts(60);
    const commands: string[] = [];
    const statements: Array<{ multi?: boolean }> = [];
    const deletes: Array<{ q: Record<string, unknown>; limit: number }> = [];
    const count = (e: { databaseName: string; commandName: string; command: { updates?: Array<{ multi?: boolean }>; deletes?: typeof deletes } }) => {
      if (e.databaseName !== connection.db!.databaseName) return;
      commands.push(e.commandName);
      statements.push(...(e.command.updates ?? []));
      deletes.push(...(e.command.deletes ?? []));
    };
    connection.getClient().on('commandStarted', count);
    const [a, b] = await Promise.all([dispatcher(), dispatcher()]);
    const handed = await Promise.all([dispatchDuePosts(a), dispatchDuePosts(b)]).finally(() => connection.getClient().off('commandStarted', count));
    expect(handed[0] + handed[1]).toBe(60);
    expect(sent.sort()).toEqual((await Promise.all(ids.map(dispatchIdOf))).sort());
    expect(new Set(await Promise.all(ids.map(statusOf)))).toEqual(new Set(['publishing']));
    // The list index saw every move: each post's newest entry says publishing.
    const deltas = await connection.model('PostListDelta').find({ workspace_id: workspaceId }).lean<ListDeltaDoc[]>();
    const newest = new Map<number, ListEntry>();
    for (const d of deltas) for (const e of deltaEntries(d)) mergeEntry(newest, decodeEntry(e));
    expect(ids.map((id) => newest.get(id)?.status)).toEqual(ids.map(() => 'publishing'));
    // Per pass: the clock, the due scan, one claim insert, one transition write, the moved posts' list
    // entries (one insert), one delete finishing the claims, the scan for standing claims; the loser of each
    // claim reads it once (a claim lookup each).
    const perPass = commands.filter((c) => c !== 'hello');
    expect(perPass.filter((c) => c === 'insert').length).toBeLessThanOrEqual(4);
    expect(perPass.filter((c) => c === 'update').length).toBeLessThanOrEqual(2);
    expect(perPass.filter((c) => c === 'delete').length).toBeLessThanOrEqual(2);
    expect(perPass.length).toBeLessThanOrEqual(2 * 6 + 60);
    // Multi-document statements only: FerretDB 1.x holds a connection per single-document statement
    // until the command ends, and a batch of ~50 of them hangs it (libs/mongo updateEach).
    expect(statements.length).toBeGreaterThanOrEqual(60);
    expect(statements.filter((u) => u.multi !== true)).toEqual([]);
    // The claims are finished by batch, a statement for all of a dispatcher's (not one each), and none stands.
    expect(deletes.map((d) => [Object.keys(d.q), d.limit])).toEqual(deletes.map(() => [['batch', '_id'], 0]));
    expect(deletes.length).toBeLessThanOrEqual(2);
    expect(await connection.model('Dispatch').countDocuments({ post_id: { $in: ids } })).toBe(0);
  });

  it('finishes a claim whose holder died before sending (after the lease), and leaves a live one alone', async () => {
    sent.length = 0;
    const deadBeforeMove = (await duePosts(1))[0]!;
    const deadAfterMove = (await duePosts(1, 'publishing'))[0]!;
    const held = (await duePosts(1))[0]!;
    // Claims that need no job: the post ended; the post is publishing for another due time (rescheduled after the claim).
    const ended = (await duePosts(1, 'posted'))[0]!;
    const otherTime = (await duePosts(1, 'publishing'))[0]!;
    const old = new Date(Date.now() - DISPATCH_LEASE_MS - 1_000);
    await store.claimDispatches([
      { id: await dispatchIdOf(deadBeforeMove), workspaceId, postId: deadBeforeMove, claimedAt: old },
      { id: await dispatchIdOf(deadAfterMove), workspaceId, postId: deadAfterMove, claimedAt: old },
      { id: await dispatchIdOf(held), workspaceId, postId: held, claimedAt: new Date() },
      { id: await dispatchIdOf(ended), workspaceId, postId: ended, claimedAt: old },
      { id: `${otherTime}:1`, workspaceId, postId: otherTime, claimedAt: old },
    ]);
    expect(await dispatchDuePosts(await dispatcher())).toBe(2);
    expect(sent.sort()).toEqual([await dispatchIdOf(deadBeforeMove), await dispatchIdOf(deadAfterMove)].sort());
    expect([await statusOf(deadBeforeMove), await statusOf(deadAfterMove), await statusOf(held)]).toEqual(['publishing', 'publishing', 'scheduled']);
    // On the wire: the post moved here travels with its job; the one the dead claimer moved does not (this
    // dispatcher holds no copy it moved), so the publisher reads it.
    const jobs = await lastJobs(2);
    expect(Object.fromEntries(jobs.map((j) => [j.postId, j.post?.id]))).toEqual({ [deadBeforeMove]: deadBeforeMove, [deadAfterMove]: undefined });
    // Sent claims are done, and so are those that needed no job: only the live holder's claim stands.
    const standing = await connection
      .model('Dispatch')
      .find({ post_id: { $in: [deadBeforeMove, deadAfterMove, held, ended, otherTime] } })
      .lean<Array<{ post_id: number }>>();
    expect(standing.map((d) => d.post_id)).toEqual([held]);
    expect(await dispatchDuePosts(await dispatcher())).toBe(0);
    expect(sent).toHaveLength(2);
  });
});

describe('a dispatcher that read a due post before another handed it over', () => {
  it('sends no second job and leaves no claim standing (the other finished its claim once its job was sent)', async () => {
    sent.length = 0;
    const [id] = await duePosts(1);
    const read = (await store.duePosts(new Date(), 5_000)).filter((p) => p.id === id);
    const first = await dispatcher();
    // The late one's clock is past the first's, as it is in life (the two moves are store round trips apart).
    const late = { ...(await dispatcher()), clock: { now: () => new Date(Date.now() + 1_000) } };
    expect(await dispatch(first, read)).toEqual([true]);
    expect(await dispatch(late, read)).toEqual([false]);
    expect(sent).toEqual([await dispatchIdOf(id!)]);
    expect(await statusOf(id!)).toBe('publishing');
    expect(await connection.model('Dispatch').countDocuments({ post_id: id })).toBe(0);
  });

  it('sends nothing for a post edited or deleted since the read, finishes both claims, and the next pass sends the edit', async () => {
    sent.length = 0;
    const [edited, deleted] = await duePosts(2);
    const read = (await store.duePosts(new Date(), 5_000)).filter((p) => p.id === edited || p.id === deleted);
    const posts = connection.db!.collection<{ _id: number }>('posts');
    await posts.updateOne({ _id: edited! }, { $set: { body: 'edited', updated_at: new Date() } });
    await posts.deleteOne({ _id: deleted! });
    expect(await dispatch(await dispatcher(), read)).toEqual([false, false]);
    expect(sent).toEqual([]);
    expect(await statusOf(edited!)).toBe('scheduled');
    expect(await connection.model('Dispatch').countDocuments({ post_id: { $in: [edited, deleted] } })).toBe(0);
    // Still due, the edited post is handed over by the next pass, as it stands now.
    // (Other posts of this file may be due too: a claim held in an earlier test is taken over once its lease ends.)
    await dispatchDuePosts(await dispatcher());
    expect(sent).toContain(await dispatchIdOf(edited!));
    const job = (await lastJobs(5)).find((j) => j.postId === edited);
    expect(job?.post?.body).toBe('edited');
  });
});

describe("recording a publishing post's results", () => {
  const ok = (postAccountId: number) => ({ postAccountId, platformStatus: 'posted' as const, platformPostId: `p${postAccountId}`, disconnected: false });

  /** A publishing post with one target (post account `id * 10`). */
  async function publishingPost(): Promise<number> {
    const [id] = await duePosts(1, 'publishing');
    await connection.db!.collection<{ _id: number }>('posts').updateOne({ _id: id! }, { $set: { post_accounts: [{ id: id! * 10, social_account_id: 1, platform: 'twitter', username: 'u' }] } });
    return id!;
  }

  it('sends the post with its job, and records its results on the post as moved, with no read of it', async () => {
    const deps = await dispatcher();
    const [id] = await duePosts(1);
    await connection.db!.collection<{ _id: number }>('posts').updateOne({ _id: id! }, { $set: { post_accounts: [{ id: id! * 10, social_account_id: 1, platform: 'twitter', username: 'u' }] } });
    const post = (await store.duePosts(new Date(), 5_000)).find((p) => p.id === id)!;
    expect(await dispatch(deps, [post])).toEqual([true]);
    // The job as the publisher receives it.
    const jsm = await jetstreamManager(nc);
    const message = await jsm.streams.getMessage(PUBLISH_JOBS_STREAM.name, { last_by_subj: publishJobSubject(namespace) });
    const job = PublishJob.decode(message!.data);
    expect([job.postId, job.dispatchId, job.post?.state, job.post?.body, job.post?.postAccounts.map((a) => a.id)]).toEqual([
      id,
      `${id}:${post.scheduledAt!.getTime()}`,
      postStatusCodec.toProto('publishing'),
      `due ${id}`,
      [id! * 10],
    ]);
    let status = '';
    const reads = await readsIssuedBy(connection, async () => (status = (await recordPublishResults(deps, workspaceId, id!, [ok(id! * 10)])).status));
    expect(status).toBe('posted');
    expect(reads.filter((r) => r.command === 'find' && r.collection === 'posts')).toEqual([]);
  });

  it('reads the post no more when this process just served it to the publisher', async () => {
    const deps = await dispatcher();
    const id = await publishingPost();
    await store.get(workspaceId, id); // the publisher's read of the job's post
    let status = '';
    const reads = await readsIssuedBy(connection, async () => (status = (await recordPublishResults(deps, workspaceId, id, [ok(id * 10)])).status));
    expect(status).toBe('posted');
    expect(reads.filter((r) => r.command === 'find' && r.collection === 'posts')).toEqual([]);
    expect(store.lastRead(workspaceId, id)).toBeUndefined(); // written since: a result recorded again reads afresh
    expect((await store.get(workspaceId, id))!.postAccounts[0]!.platformPostId).toBe(`p${id * 10}`);
  });

  it('records on what is stored when the post changed after that read, never on the stale copy', async () => {
    const deps = await dispatcher();
    const id = await publishingPost();
    await store.get(workspaceId, id);
    await connection.db!.collection<{ _id: number }>('posts').updateOne({ _id: id }, { $set: { body: 'changed meanwhile', updated_at: new Date() } });
    const ended = await recordPublishResults(deps, workspaceId, id, [ok(id * 10)]);
    expect(ended.status).toBe('posted');
    const stored = (await store.get(workspaceId, id))!;
    expect([stored.status, stored.body, stored.postAccounts[0]!.platformStatus]).toEqual(['posted', 'changed meanwhile', 'posted']);
  });

  it("announces each target's first short link, empty for a target published without one", async () => {
    const deps = await dispatcher();
    const id = await publishingPost();
    await connection
      .db!.collection<{ _id: number }>('posts')
      .updateOne({ _id: id }, { $push: { post_accounts: { id: id * 10 + 1, social_account_id: 2, platform: 'mastodon', username: 'v' } } } as never);
    await store.get(workspaceId, id);
    await recordPublishResults(deps, workspaceId, id, [ok(id * 10), { ...ok(id * 10 + 1), dubShortUrl: 'https://dub.sh/a', dubOriginalUrl: 'https://example.com' }]);
    const entry = await store.models.Outbox.findOne({ post_id: id, subject: 'posts.post.terminal' }).lean<{ payload: string }>();
    const event = PostTerminal.decode(Buffer.from(entry!.payload, 'base64'));
    expect(event.platforms.map((p) => [p.postAccountId, p.dubShortUrl])).toEqual([
      [id * 10, ''],
      [id * 10 + 1, 'https://dub.sh/a'],
    ]);
  });

  it('leaves a post that is no longer publishing as it is', async () => {
    const deps = await dispatcher();
    const id = await publishingPost();
    await store.get(workspaceId, id);
    await connection.db!.collection<{ _id: number }>('posts').updateOne({ _id: id }, { $set: { status: 'failed', updated_at: new Date() } });
    expect((await recordPublishResults(deps, workspaceId, id, [ok(id * 10)])).status).toBe('failed');
    expect((await store.get(workspaceId, id))!.postAccounts[0]!.platformStatus).toBeUndefined();
  });
});

describe('the due scan: a window since the last pass, and now and then every due post', () => {
  it('reads every due post first, then those due since the previous pass (less a margin), every due post again after the full-scan interval or a pass that reached its limit', () => {
    const scan = new DueScan(30_000);
    const t0 = new Date('2026-11-28T10:00:00Z');
    const at = (ms: number) => new Date(t0.getTime() + ms);
    expect(scan.since(t0)).toBeUndefined();
    scan.passed(t0, undefined, true);
    expect(scan.since(at(1_000))).toEqual(at(-5_000));
    scan.passed(at(1_000), at(-5_000), true);
    expect(scan.since(at(2_000))).toEqual(at(-4_000));
    // A failed pass (never `passed`) leaves the window where it was.
    expect(scan.since(at(3_000))).toEqual(at(-4_000));
    expect(scan.since(at(30_000))).toBeUndefined();
    scan.passed(at(30_000), undefined, true);
    expect(scan.since(at(31_000))).toEqual(at(25_000));
    scan.passed(at(31_000), at(25_000), false);
    expect(scan.since(at(32_000))).toBeUndefined();
  });

  it('a windowed pass dispatches what fell due in the window and reads by due second; a post due before it waits for the next full pass', async () => {
    const deps = await dispatcher();
    const scan = new DueScan(3_600_000);
    // The full first pass: whatever this file's other tests left due goes now.
    await dispatchDuePosts(deps, undefined, scan);
    const now = await store.databaseNow();
    const [recent] = await duePosts(1, 'scheduled', new Date(now.getTime() - 1_000));
    const [late] = await duePosts(1, 'scheduled', new Date(now.getTime() - 600_000)); // left by a dispatcher that died, say
    const reads = await readsIssuedBy(connection, () => dispatchDuePosts(deps, undefined, scan));
    expect([await statusOf(recent!), await statusOf(late!)]).toEqual(['publishing', 'scheduled']);
    const scans = reads.filter((r) => r.collection === 'posts' && 'due_second' in r.filter);
    expect(scans.length).toBeGreaterThan(0);
    expect(reads.filter((r) => r.collection === 'posts' && 'scheduled_at' in r.filter && !('due_second' in r.filter))).toEqual([]);
    // The store answers the window and the whole the same way for what both hold.
    expect((await store.duePosts(await store.databaseNow(), 5_000)).map((p) => p.id)).toContain(late);
    const full = new DueScan(0);
    await dispatchDuePosts(deps, undefined, full);
    expect(await statusOf(late!)).toBe('publishing');
  });

  it("an approval after the post's time hands it to the publisher at once, not at the next full scan", async () => {
    const deps = await dispatcher();
    const now = await store.databaseNow();
    const [id] = await duePosts(1, 'pending_review', new Date(now.getTime() - 600_000));
    const approved = await approvePost(deps, workspaceId, id!);
    expect(approved.status).toBe('publishing');
    expect(sent).toContain(await dispatchIdOf(id!));
    // One approved before its time stays scheduled for the scheduler.
    const [later] = await duePosts(1, 'pending_review', new Date(now.getTime() + 600_000));
    expect((await approvePost(deps, workspaceId, later!)).status).toBe('scheduled');
  });

  it('gives scheduled posts stored before due seconds existed theirs at startup, so a window finds them', async () => {
    const now = await store.databaseNow();
    const [old] = await duePosts(1);
    await connection.db!.collection<{ _id: number }>('posts').updateOne({ _id: old! }, { $set: { scheduled_at: new Date(now.getTime() - 1_000) } });
    const window = new Date(now.getTime() - 5_000);
    expect((await store.duePosts(now, 5_000, window)).map((p) => p.id)).not.toContain(old);
    expect(await store.dispatches.backfillDueSeconds()).toBeGreaterThanOrEqual(1);
    expect((await store.duePosts(now, 5_000, window)).map((p) => p.id)).toContain(old);
    expect(await store.dispatches.backfillDueSeconds()).toBe(0);
  });
});
