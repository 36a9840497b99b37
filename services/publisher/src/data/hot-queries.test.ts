/**
 * The publisher's hot queries (a target's attempts, the claims, lease renewals, the outcomes) are served
 * by an index on the local store however many attempts history holds: taken from the wire while the
 * real attempt store runs, then explained (FerretDB on PostgreSQL; see scripts/lib/ferretdb-index-companions.sql).
 */
import { randomBytes } from 'node:crypto';
import { commandNamesIssuedBy, connectMongo, readsIssuedBy, sequentialScans, storeBackend, syncIndexes, type Connection, type IssuedRead } from '@spa/mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoAttemptStore } from './attempt-store.js';
import { MongoMetricRetryStore } from './metric-retry-store.js';

const HISTORY = 3_000;
let connection: Connection;
let store: MongoAttemptStore;
let retries: MongoMetricRetryStore;

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_hot_publisher_${randomBytes(4).toString('hex')}`);
  store = new MongoAttemptStore(connection);
  retries = new MongoMetricRetryStore(connection);
  await syncIndexes(connection);
  const at = new Date(Date.now() - 86_400_000);
  await connection.db!.collection<{ _id: string }>('attempts').insertMany(
    Array.from({ length: HISTORY }, (_, i) => ({
      _id: `${1_000_000 + i}:1`,
      post_account_id: 1_000_000 + i,
      n: 1,
      started_at: at,
      outcome: { kind: 'posted', platformPostId: `p${i}`, permalink: '' },
    })),
  );
  // A backlog of metric fetches waiting in the retry lane, due over the next hour.
  const now = Date.now();
  await connection.db!.collection<{ _id: string }>('metric_retries').insertMany(
    Array.from({ length: HISTORY }, (_, i) => {
      const due = new Date(now + 60_000 + i * 1_000);
      return { _id: `${2_000_000 + i}:1:try1`, workspace_id: 1 + (i % 7), platform: 'bluesky', due_at: due, due_second: Math.floor(due.getTime() / 1000), job: '' };
    }),
  );
}, 120_000);

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

describe('hot queries of the publisher (explained on FerretDB over PostgreSQL)', () => {
  it('runs on FerretDB over PostgreSQL', async () => {
    expect(await storeBackend(connection)).toBe('ferretdb-postgresql');
  });

  it("a target's attempts, a job's claims, lease renewals and outcomes (batched) use indexes", async () => {
    let reads: IssuedRead[] = [];
    const commands = await commandNamesIssuedBy(connection, async () => {
      reads = await readsIssuedBy(connection, async () => {
        expect(await store.attempts(42)).toEqual([]);
        expect(await store.claim([42, 43].map((postAccountId) => ({ postAccountId, n: 1, startedAt: new Date() })))).toEqual([true, true]);
        await store.touch(
          [
            { postAccountId: 42, n: 1 },
            { postAccountId: 43, n: 1 },
          ],
          new Date(),
        );
        await store.record([42, 43].map((postAccountId) => ({ postAccountId, n: 1, outcome: { kind: 'posted', platformPostId: 'x', permalink: '' } })));
        expect((await store.attempts(42)).map((a) => a.outcome?.kind)).toEqual(['posted']);
      });
    });
    // One command per batch: the renewals' update carries one statement per attempt, each by `_id`; the
    // outcomes are one insert, which reads nothing.
    expect(commands).toEqual(['find', 'insert', 'update', 'insert', 'find']);
    expect(reads.map((r) => r.command)).toEqual(['find', 'update', 'update', 'find']);
    expect(await sequentialScans(connection, reads)).toEqual([]);
  });

  it('the claims and outcomes of jobs running at the same time share one command each, and a claim made twice is won once', async () => {
    // Three jobs of three targets each, the third a redelivery of the first.
    const jobs = [
      [50, 51, 52],
      [60, 61, 62],
      [50, 51, 52],
    ].map((ids) => ids.map((postAccountId) => ({ postAccountId, n: 1, startedAt: new Date() })));
    let claimed: boolean[][] = [];
    const commands = await commandNamesIssuedBy(connection, async () => {
      claimed = await Promise.all(jobs.map((job) => store.claim(job)));
      await Promise.all(jobs.slice(0, 2).map((job) => store.record(job.map((a) => ({ ...a, outcome: { kind: 'posted' as const, platformPostId: 'x', permalink: '' } })))));
    });
    expect(claimed).toEqual([
      [true, true, true],
      [true, true, true],
      [false, false, false],
    ]);
    expect(commands).toEqual(['insert', 'insert']);
    expect((await store.attempts(61)).map((a) => a.outcome?.kind)).toEqual(['posted']);
  });

  it('the first outcome recorded stands; a claim stored with its outcome inside (before outcomes had their own documents) reads the same', async () => {
    const [claimed] = await store.claim([{ postAccountId: 70, n: 1, startedAt: new Date('2026-11-26T10:00:00Z') }]);
    expect(claimed).toBe(true);
    await store.record([{ postAccountId: 70, n: 1, outcome: { kind: 'unknown', error: 'no answer' } }]);
    await store.record([{ postAccountId: 70, n: 1, outcome: { kind: 'posted', platformPostId: 'late', permalink: '' } }]);
    expect(await store.attempts(70)).toEqual([{ postAccountId: 70, n: 1, startedAt: new Date('2026-11-26T10:00:00Z'), aliveAt: undefined, outcome: { kind: 'unknown', error: 'no answer' } }]);
    // History: attempt 1 of target 1,000,000 was stored with its outcome inside (beforeAll); a second try gets its own documents.
    expect(await store.claim([{ postAccountId: 1_000_000, n: 2, startedAt: new Date() }])).toEqual([true]);
    expect((await store.attempts(1_000_000)).map((a) => [a.n, a.outcome?.kind])).toEqual([
      [1, 'posted'],
      [2, undefined],
    ]);
  });

  it("the retry lane's read of the seconds that came due uses its index, and a pass's retries are recorded and forgotten in one command each", async () => {
    const due = new Date(Date.now() - 1_000);
    const second = Math.floor(due.getTime() / 1000);
    let reads: IssuedRead[] = [];
    const commands = await commandNamesIssuedBy(connection, async () => {
      reads = await readsIssuedBy(connection, async () => {
        await Promise.all(['a', 'b'].map((k, i) => retries.add({ id: `9:${i}:try1`, workspaceId: 1, platform: 'twitter', dueAt: due, job: Buffer.from(k) })));
        const found = await retries.dueInSeconds([second - 1, second]);
        expect(found.map((r) => [r.id, Buffer.from(r.job).toString()])).toEqual([
          ['9:0:try1', 'a'],
          ['9:1:try1', 'b'],
        ]);
        await retries.remove(found.map((r) => r.id));
        expect(await retries.dueInSeconds([second])).toEqual([]);
      });
    });
    expect(commands).toEqual(['insert', 'find', 'find', 'delete', 'find']);
    expect(await sequentialScans(connection, reads)).toEqual([]);
  });
});
