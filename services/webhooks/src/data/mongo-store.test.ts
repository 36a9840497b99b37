/**
 * The delivery path's writes batched by the store (@spa/mongo WriteBatcher), on the real store: writes made at
 * the same time go in one command each, and every caller still gets its own result, a duplicate claim
 * or delivery included (only a unique insert is an atomic claim on FerretDB).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { commandNamesIssuedBy, connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery, Webhook } from '../domain/model.js';
import { MongoWebhooksStore } from './mongo-store.js';

let connection: Connection;
let store: MongoWebhooksStore;

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_webhooks_batch_${randomBytes(4).toString('hex')}`);
  store = new MongoWebhooksStore(connection);
  await syncIndexes(connection);
}, 60_000);

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

/** The store commands `work` sends, by name. */
const commandsOf = (work: () => Promise<unknown>): Promise<string[]> => commandNamesIssuedBy(connection, work);

function delivery(webhookId: number, sourceKey: string): Delivery {
  const now = new Date();
  return { id: randomUUID(), webhookId, workspaceId: 1, event: 'post.published', sourceKey, payload: '{}', status: 'scheduled', attempts: 0, attemptLimit: 7, nextAttemptAt: now, createdAt: now };
}

describe('the webhooks store batches the delivery path writes made at the same time', () => {
  it('records 20 deliveries in one insert; the duplicate (same webhook and source) is refused, the others stored whole', async () => {
    const deliveries = Array.from({ length: 20 }, (_, i) => delivery(10 + i, 'event-a'));
    const duplicate = delivery(10, 'event-a');
    let inserted: boolean[] = [];
    const commands = await commandsOf(async () => {
      inserted = await Promise.all([...deliveries, duplicate].map((d) => store.insertDelivery(d)));
    });
    expect(inserted).toEqual([...deliveries.map(() => true), false]);
    expect(commands).toEqual(['insert']);
    const stored = await store.getDelivery(deliveries[7]!.id);
    expect(stored).toMatchObject({ webhookId: 17, sourceKey: 'event-a', status: 'scheduled', attempts: 0, attemptLimit: 7 });
    expect(stored?.origin).toBeUndefined();
    expect(stored?.nextAttemptAt).toBeInstanceOf(Date);
  });

  it('claims attempts in one insert: each attempt is won exactly once, within the batch and against an earlier claim', async () => {
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const at = new Date();
    expect(await store.claimAttempt({ deliveryId: ids[0]!, attempt: 1, claimedAt: at, claimedBy: 'earlier' })).toBe(true);
    let won: boolean[] = [];
    const commands = await commandsOf(async () => {
      won = await Promise.all([...ids, ids[5]!, ids[5]!].map((deliveryId, i) => store.claimAttempt({ deliveryId, attempt: 1, claimedAt: at, claimedBy: `d${i}` })));
    });
    expect(commands).toEqual(['insert']);
    expect(won[0]).toBe(false); // claimed earlier
    expect(won.slice(1).filter((w) => w).length).toBe(19 - 1 + 1); // ids 1..19 once each, ids[5] once of its three claims
    expect([won[5], won[20], won[21]].filter((w) => w)).toHaveLength(1);
  });

  it('records the outcomes of attempts that end together, on their deliveries, in one update', async () => {
    const deliveries = Array.from({ length: 20 }, (_, i) => delivery(100 + i, 'event-b'));
    await Promise.all(deliveries.map((d) => store.insertDelivery(d)));
    const finishedAt = new Date();
    const commands = await commandsOf(() =>
      Promise.all(
        deliveries.map((d, i) =>
          store.updateDelivery(d.id, {
            attempts: 1,
            status: i % 2 ? 'succeeded' : 'failed',
            nextAttemptAt: undefined,
            finishedAt,
            lastError: i % 2 ? undefined : `boom ${i}`,
            lastStatusCode: i % 2 ? 200 : undefined,
          }),
        ),
      ),
    );
    expect(commands).toEqual(['update']);
    for (const [i, d] of deliveries.entries()) {
      expect(await store.getDelivery(d.id)).toMatchObject({
        attempts: 1,
        status: i % 2 ? 'succeeded' : 'failed',
        finishedAt,
        nextAttemptAt: undefined,
        lastError: i % 2 ? undefined : `boom ${i}`,
        lastStatusCode: i % 2 ? 200 : undefined,
      });
    }
  });
});

describe('the webhooks store shares the subscribers reads asked for at the same time', () => {
  async function webhook(id: number, workspaceId: number, events: string[], enabled = true): Promise<void> {
    const at = new Date();
    await store.insertWebhook({ id, workspaceId, url: `https://hooks.example/${id}`, events: events as never, enabled, enabledAt: at, secret: 'sealed', createdAt: at }, id % 5);
  }

  it("answers the events of 3 workspaces with one find, each with only its own workspace's enabled subscribers of its kind", async () => {
    const base = 5_000 + Math.floor(Math.random() * 1_000) * 10;
    await webhook(base + 1, base, ['post.published']);
    await webhook(base + 2, base, ['post.failed']);
    await webhook(base + 3, base, ['post.published', 'post.failed'], false);
    await webhook(base + 4, base + 1, ['post.published', 'post.failed']);
    let answers: number[][] = [];
    const commands = await commandsOf(async () => {
      const asks: Array<[number, string]> = [
        [base, 'post.published'],
        [base, 'post.failed'],
        [base, 'post.published'],
        [base + 1, 'post.failed'],
        [base + 2, 'post.published'],
      ];
      answers = (await Promise.all(asks.map(([w, e]) => store.subscribers(w, e)))).map((hooks) => hooks.map((h) => h.id));
    });
    expect(commands).toEqual(['find']);
    expect(answers).toEqual([[base + 1], [base + 2], [base + 1], [base + 4], []]);
  });

  it('keeps nothing once read: a webhook disabled after one read is left out of the next', async () => {
    const id = 9_000_000 + Math.floor(Math.random() * 100_000);
    await webhook(id, id, ['post.published']);
    expect((await store.subscribers(id, 'post.published')).map((h) => h.id)).toEqual([id]);
    await store.updateWebhook(id, { enabled: false });
    expect(await store.subscribers(id, 'post.published')).toEqual([]);
  });
});

describe('deleting a webhook', () => {
  it('removes it with its deliveries and their attempts, frees its slot, and leaves other webhooks alone', async () => {
    const now = new Date();
    const webhook = (id: number): Webhook => ({ id, workspaceId: 77, url: 'https://example.com/h', events: ['post.published'], enabled: true, enabledAt: now, secret: 's', createdAt: now });
    expect(await store.insertWebhook(webhook(9001), 1)).toBe(true);
    expect(await store.insertWebhook(webhook(9002), 2)).toBe(true);
    const mine = [delivery(9001, 'a'), delivery(9001, 'b')];
    const other = delivery(9002, 'a');
    await Promise.all([...mine, other].map((d) => store.insertDelivery(d)));
    await Promise.all([...mine, other].map((d) => store.claimAttempt({ deliveryId: d.id, attempt: 1, claimedAt: now, claimedBy: 'test' })));

    expect(await store.deleteWebhook(9001)).toBe(true);
    expect(await store.getWebhook(9001)).toBeNull();
    expect(await store.listDeliveries(9001, 10)).toEqual([]);
    expect(await Promise.all(mine.map((d) => store.getAttempt(d.id, 1)))).toEqual([null, null]);
    expect((await store.listDeliveries(9002, 10)).map((d) => d.id)).toEqual([other.id]);
    expect(await store.getAttempt(other.id, 1)).not.toBeNull();
    // Its slot takes a new webhook; deleting it again finds nothing.
    expect(await store.insertWebhook(webhook(9003), 1)).toBe(true);
    expect(await store.deleteWebhook(9001)).toBe(false);
  });
});
