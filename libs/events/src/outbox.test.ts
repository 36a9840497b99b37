import { randomBytes, randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { createLogger } from '@spa/logger';
import { connectMongo, type Connection } from '@spa/mongo';
import { connectNats, EVENTS_STREAM, workspaceEventsFilter, type NatsConnection } from '@spa/nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventOutbox } from './outbox.js';
import { decodePublicEvent, publicEvent } from './public-event.js';

/** The outbox of public events on the real store and NATS: published once their change landed, never otherwise. */
let connection: Connection;
let nc: NatsConnection;
const namespace = `t_outbox_${randomBytes(4).toString('hex')}`;
const logger = createLogger('outbox-test', 'silent');
let workspace = 1;

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_outbox_${randomBytes(4).toString('hex')}`);
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'outbox-test');
});
afterAll(async () => {
  await (await jetstreamManager(nc)).streams.purge(EVENTS_STREAM.name, { filter: `events.${namespace}.>` }).catch(() => undefined);
  await connection.dropDatabase();
  await connection.close();
  await nc.drain();
});

/** The events of a workspace in the stream, in order. */
async function published(workspaceId: number): Promise<string[]> {
  const jsm = await jetstreamManager(nc);
  const ids: string[] = [];
  for (let seq = 1; ;) {
    const m = await jsm.direct.getMessage(EVENTS_STREAM.name, { seq, next_by_subj: workspaceEventsFilter(namespace, workspaceId) });
    if (!m) return ids;
    ids.push(decodePublicEvent(m.data).id);
    seq = m.seq + 1;
  }
}

const eventFor = (workspaceId: number) =>
  publicEvent(randomUUID(), workspaceId, 'account.connected', new Date(), { social_account_id: 1, platform: 'twitter', username: 'x', reconnected: false, sandbox: true });
const things = () => connection.db!.collection<{ _id: number; changed_at: Date }>('things');

async function settled(outbox: EventOutbox): Promise<void> {
  for (let i = 0; i < 100 && (await outbox.model.countDocuments({ state: 'pending' })) > 0; i++) await new Promise((r) => setTimeout(r, 50));
}

describe('EventOutbox (real store and NATS)', () => {
  it('publishes an event once its change landed, removes its entry, and publishes nothing for a change not made', async () => {
    const outbox = new EventOutbox({ connection, nc, namespace, logger });
    await outbox.start(60_000);
    const ws = workspace++;
    const made = eventFor(ws);
    const at = new Date();
    await outbox.around([{ event: made, landedWhen: { collection: 'things', id: ws, field: 'changed_at', value: at, op: 'gte' } }], () => things().insertOne({ _id: ws, changed_at: at }));
    const refused = eventFor(ws);
    await outbox.around(
      [{ event: refused, landedWhen: { collection: 'things', id: ws, field: 'changed_at', value: at, op: 'gte' } }],
      async () => ({ matchedCount: 0 }),
      (r) => r.matchedCount === 1,
    );
    await settled(outbox);
    await outbox.stop();
    expect(await published(ws)).toEqual([made.id]);
    expect(await outbox.model.countDocuments({ _id: { $in: [made.id, refused.id] } })).toBe(0);
  });

  it('after a crash (entries left by a process that relayed nothing): publishes what landed, drops what never did after a minute', async () => {
    const ws = workspace++;
    const held = new EventOutbox({ connection, nc, namespace, logger, hold: true });
    await held.start(60_000);
    const landed = eventFor(ws);
    const never = eventFor(ws);
    const at = new Date();
    await held.around([{ event: landed, landedWhen: { collection: 'things', id: ws, field: 'changed_at', value: at, op: 'gte' } }], () => things().insertOne({ _id: ws, changed_at: at }));
    // A write that died before its change: the entry is there, the change is not.
    await held
      .around([{ event: never, landedWhen: { collection: 'things', id: ws, field: 'changed_at', value: new Date(at.getTime() + 1_000), op: 'gte' } }], async () => {
        throw new Error('the process died');
      })
      .catch(() => undefined);
    await held.stop();
    expect(await published(ws)).toEqual([]);

    // The next process: the landed one goes out; the other waits for its change, then is dropped as never made.
    let now = new Date();
    const next = new EventOutbox({ connection, nc, namespace, logger, clock: { now: () => now } });
    await next.start(50);
    await expect.poll(() => published(ws), { timeout: 10_000, interval: 100 }).toEqual([landed.id]);
    expect((await next.model.findById(never.id).lean())?.state).toBe('pending');
    now = new Date(Date.now() + 61_000);
    await expect.poll(async () => (await next.model.findById(never.id).lean())?.state, { timeout: 10_000, interval: 100 }).toBe('abandoned');
    await next.stop();
    expect(await published(ws)).toEqual([landed.id]);
  });

  it('an event kept once sent (emit, keep) is announced once however often it is queued again', async () => {
    const ws = workspace++;
    const outbox = new EventOutbox({ connection, nc, namespace, logger });
    await outbox.start(60_000);
    const event = eventFor(ws);
    expect(await outbox.emit([event], true)).toEqual([true]);
    await settled(outbox);
    expect((await outbox.model.findById(event.id).lean())?.state).toBe('sent');
    expect(await outbox.emit([event], true)).toEqual([false]);
    await settled(outbox);
    await outbox.stop();
    expect(await published(ws)).toEqual([event.id]);
  });
});
