/**
 * The webhooks service's hot queries (deliveries due, a delivery by id, its update, attempt claims and
 * outcomes, a webhook's recent results) are served by an index on the local store however many finished
 * deliveries history holds: taken from the wire while the real store runs, then explained (FerretDB on
 * PostgreSQL; see scripts/lib/ferretdb-index-companions.sql).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { connectMongo, readsIssuedBy, sequentialScans, storeBackend, syncIndexes, type Connection } from '@spa/mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoWebhooksStore } from './mongo-store.js';

const HISTORY = 3_000;
let connection: Connection;
let store: MongoWebhooksStore;

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_hot_webhooks_${randomBytes(4).toString('hex')}`);
  store = new MongoWebhooksStore(connection);
  await syncIndexes(connection);
  const at = new Date(Date.now() - 86_400_000);
  await connection.db!.collection<{ _id: string }>('deliveries').insertMany(
    Array.from({ length: HISTORY }, (_, i) => ({
      _id: randomUUID(),
      webhook_id: 1_000 + (i % 100),
      workspace_id: 1,
      event: 'post.published',
      source_key: `old-${i}`,
      payload: '{}',
      status: 'succeeded',
      attempts: 1,
      attempt_limit: 7,
      created_at: at,
      finished_at: at,
    })),
  );
}, 120_000);

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

describe('hot queries of the webhooks service (explained on FerretDB over PostgreSQL)', () => {
  it('runs on FerretDB over PostgreSQL', async () => {
    expect(await storeBackend(connection)).toBe('ferretdb-postgresql');
  });

  it('deliveries due, a delivery by id, its attempt claim and outcome, recent results use indexes', async () => {
    const now = new Date();
    const id = randomUUID();
    await store.insertDelivery({
      id,
      webhookId: 7,
      workspaceId: 1,
      event: 'post.published',
      sourceKey: 'new-1',
      payload: '{}',
      status: 'scheduled',
      attempts: 0,
      attemptLimit: 7,
      nextAttemptAt: now,
      createdAt: now,
    });
    const reads = await readsIssuedBy(connection, async () => {
      expect((await store.dueDeliveries(new Date(now.getTime() + 1), 50, [])).map((d) => d.id)).toEqual([id]);
      expect(await store.claimAttempt({ deliveryId: id, attempt: 1, claimedAt: now, claimedBy: 'test' })).toBe(true);
      expect((await store.getDelivery(id))?.id).toBe(id);
      await store.updateDelivery(id, { attempts: 1, status: 'succeeded', finishedAt: now, nextAttemptAt: undefined });
      expect((await store.getAttempt(id, 1))?.claimedBy).toBe('test');
      expect(await store.recentResults(7, new Date(now.getTime() - 1), 10)).toEqual(['succeeded']);
    });
    expect(await sequentialScans(connection, reads)).toEqual([]);
  });
});
