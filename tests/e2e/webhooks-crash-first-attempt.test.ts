import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { PostTerminal } from '@spa/contracts/events/v1/publishing';
import { connectNats, jetstream, publishEvent, type NatsConnection } from '@spa/nats';
import { dropDatabases, startProcess, TEST_INFRA, uniqueName, type RunningProcess } from '@spa/testing';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookAdmin } from '../support/webhook-admin.js';

/**
 * SIGKILL of the real webhooks process while first attempts sent from their events are out: their
 * deliveries are stored only after the attempt, so all the killed process left of them is each attempt's
 * claim and its unacknowledged event. After a restart JetStream hands those events out again (after the
 * ack wait, 30 s), each finds its claim, and its delivery goes on with attempt 2 under the same id: none
 * lost, no attempt number twice.
 */
const db = uniqueName('t_webhooks_first_crash');
const consumer = uniqueName('t_webhooks_first_crash_consumer');
const env = () => ({
  MONGO_URL: TEST_INFRA.mongoUrl,
  NATS_URL: TEST_INFRA.natsUrl,
  MONGO_DB: db,
  GRPC_PORT: '0',
  SECRETS_KEY: 'crash-test-secrets-key-of-32-characters-or-more',
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  WEBHOOKS_CONSUMER: consumer,
  WEBHOOKS_POLL_INTERVAL_MS: '200',
  WEBHOOKS_CONCURRENCY_PER_WEBHOOK: '8',
});
const WORKSPACES = 5;
const EVENTS_PER_WORKSPACE = 40;
const HELD = WORKSPACES * 8;

let nc: NatsConnection;
let receiver: http.Server;
let receiverUrl: string;
let connection: mongoose.Connection;
const processes: RunningProcess[] = [];
/** Every request the receiver saw: [delivery id, attempt]. Until the kill it answers none (they are "out"); after it, 200. */
const seen: Array<[string, number]> = [];
const delivered = new Set<string>();
let answering = false;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    seen.push([String(req.headers['x-service-event-id']), Number(req.headers['x-service-attempt'])]);
    if (!answering) return; // held until the process that sent it is killed
    delivered.add(String(req.headers['x-service-event-id']));
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  nc = await connectNats(TEST_INFRA.natsUrl, 'webhooks-first-crash-test');
  connection = await mongoose.createConnection(TEST_INFRA.mongoUrl, { dbName: db }).asPromise();
});
afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await (await jetstreamManager(nc)).consumers.delete('POSTS', consumer).catch(() => undefined);
  await nc?.drain();
  await connection?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  await dropDatabases([db]);
});

describe('webhooks: first attempts sent from their events, dispatcher killed (SIGKILL of the real process)', () => {
  it('loses none of the deliveries whose first attempt was out, and continues each with attempt 2 under the same id', async () => {
    const first = await startProcess('webhooks', 'services/webhooks/dist/main.js', env());
    processes.push(first);
    const base = 700_000 + Math.floor(Math.random() * 99_999);
    for (let w = 0; w < WORKSPACES; w++) await webhookAdmin(first.address, ['webhook', 'create', '--workspace', String(base + w), '--url', receiverUrl]);

    const js = jetstream(nc);
    const publishes: Promise<void>[] = [];
    for (let w = 0; w < WORKSPACES; w++) {
      for (let p = 1; p <= EVENTS_PER_WORKSPACE; p++) {
        const payload = PostTerminal.encode({ workspaceId: base + w, postId: p, status: 'posted', occurredAt: new Date().toISOString(), platforms: [] }).finish();
        publishes.push(publishEvent(js, 'posts.post.terminal', payload, `${consumer}-${w}-${p}`));
      }
    }
    await Promise.all(publishes);
    // Each webhook's room (8) taken by first attempts sent from their events; the other events' deliveries stored, waiting.
    const deliveries = connection.collection<{ _id: string; status: string; attempts: number }>('deliveries');
    await expect.poll(() => seen.length, { timeout: 60_000, interval: 20 }).toBe(HELD);
    await expect.poll(() => deliveries.countDocuments(), { timeout: 60_000, interval: 20 }).toBe(WORKSPACES * EVENTS_PER_WORKSPACE - HELD);
    const out = new Set(seen.map(([id]) => id));
    const stored = new Set((await deliveries.find({}, { projection: { _id: 1 } }).toArray()).map((d) => d._id));
    expect(
      [...out].filter((id) => stored.has(id)),
      'a delivery sent from its event is stored only after its attempt',
    ).toEqual([]);

    first.child.kill('SIGKILL');
    await first.stop();
    answering = true;
    receiver.closeAllConnections();

    const second = await startProcess('webhooks', 'services/webhooks/dist/main.js', env());
    processes.push(second);
    const restartedAt = Date.now();
    await expect.poll(() => delivered.size, { timeout: 120_000, interval: 500 }).toBe(WORKSPACES * EVENTS_PER_WORKSPACE);
    console.log(`all ${delivered.size} delivered ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart`);

    // The attempts that were out continue under the same id with attempt 2; nothing is sent twice.
    const pairs = seen.map(([id, attempt]) => `${id}:${attempt}`);
    expect(new Set(pairs).size, 'no attempt number is ever sent twice').toBe(pairs.length);
    for (const id of out)
      expect(
        seen.filter(([seenId]) => seenId === id).map(([, attempt]) => attempt),
        id,
      ).toEqual([1, 2]);
    const claims = await connection.collection<{ delivery_id: string; attempt: number }>('attempts').find({}).toArray();
    const claimed = new Map<string, number[]>();
    for (const c of claims) claimed.set(c.delivery_id, [...(claimed.get(c.delivery_id) ?? []), c.attempt]);
    for (const [id, numbers] of claimed)
      expect(
        numbers.sort((a, b) => a - b),
        id,
      ).toEqual(numbers.map((_, i) => i + 1));
    await expect.poll(() => deliveries.countDocuments({ status: 'succeeded' }), { timeout: 30_000, interval: 500 }).toBe(WORKSPACES * EVENTS_PER_WORKSPACE);
    expect(await deliveries.countDocuments()).toBe(WORKSPACES * EVENTS_PER_WORKSPACE);
  }, 240_000);
});
