/**
 * The publisher's hot queries (a target's attempts, the claim, lease renewal, the outcome) are served
 * by an index on the local store however many attempts history holds: taken from the wire while the
 * real attempt store runs, then explained (FerretDB on PostgreSQL; see scripts/lib/ferretdb-index-companions.sql).
 */
import { randomBytes } from 'node:crypto';
import { connectMongo, readsIssuedBy, sequentialScans, storeBackend, syncIndexes, type Connection } from '@spa/mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoAttemptStore } from './attempt-store.js';

const HISTORY = 3_000;
let connection: Connection;
let store: MongoAttemptStore;

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_hot_publisher_${randomBytes(4).toString('hex')}`);
  store = new MongoAttemptStore(connection);
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
}, 120_000);

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

describe('hot queries of the publisher (explained on FerretDB over PostgreSQL)', () => {
  it('runs on FerretDB over PostgreSQL', async () => {
    expect(await storeBackend(connection)).toBe('ferretdb-postgresql');
  });

  it("a target's attempts, its claim, lease renewal and outcome use indexes", async () => {
    const reads = await readsIssuedBy(connection, async () => {
      expect(await store.attempts(42)).toEqual([]);
      expect(await store.claim({ postAccountId: 42, n: 1, startedAt: new Date() })).toBe(true);
      await store.touch(42, 1, new Date());
      await store.record(42, 1, { kind: 'posted', platformPostId: 'x', permalink: '' });
      expect((await store.attempts(42)).map((a) => a.outcome?.kind)).toEqual(['posted']);
    });
    expect(reads.map((r) => r.command)).toEqual(['find', 'update', 'update', 'find']);
    expect(await sequentialScans(connection, reads)).toEqual([]);
  });
});
