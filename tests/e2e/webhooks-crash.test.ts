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
 * SIGKILL of the real webhooks process while 500 deliveries are in flight or waiting for their retry:
 * after a restart every one is still scheduled and delivered, and no attempt number is repeated.
 */
const db = uniqueName('t_webhooks_crash');
const consumer = uniqueName('t_webhooks_crash_consumer');
const env = () => ({
  MONGO_URL: TEST_INFRA.mongoUrl,
  NATS_URL: TEST_INFRA.natsUrl,
  MONGO_DB: db,
  GRPC_PORT: '0',
  SECRETS_KEY: 'crash-test-secrets-key-of-32-characters-or-more',
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  WEBHOOKS_CONSUMER: consumer,
  WEBHOOKS_POLL_INTERVAL_MS: '200',
});
const WORKSPACES = 5;
const EVENTS_PER_WORKSPACE = 100;

let nc: NatsConnection;
let receiver: http.Server;
let receiverUrl: string;
let connection: mongoose.Connection;
const processes: RunningProcess[] = [];
/** Every request the receiver saw: [delivery id, attempt]; attempt 1 fails (after 200 ms), later ones succeed. */
const seen: Array<[string, number]> = [];
const delivered = new Set<string>();

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    const id = String(req.headers['x-service-event-id']);
    const attempt = Number(req.headers['x-service-attempt']);
    seen.push([id, attempt]);
    if (attempt === 1) setTimeout(() => res.writeHead(500).end(), 200);
    else {
      delivered.add(id);
      res.writeHead(200).end();
    }
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  nc = await connectNats(TEST_INFRA.natsUrl, 'webhooks-crash-test');
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

describe('webhooks dispatcher crash (SIGKILL of the real process)', () => {
  it('loses none of 500 in-flight retry schedules and continues attempt numbers after a restart', async () => {
    const first = await startProcess('webhooks', 'services/webhooks/dist/main.js', env());
    processes.push(first);
    const base = 600_000 + Math.floor(Math.random() * 99_999);
    for (let w = 0; w < WORKSPACES; w++) await webhookAdmin(first.address, ['webhook', 'create', '--workspace', String(base + w), '--url', receiverUrl]);

    const js = jetstream(nc);
    const publishes: Promise<void>[] = [];
    for (let w = 0; w < WORKSPACES; w++) {
      for (let p = 1; p <= EVENTS_PER_WORKSPACE; p++) {
        const payload = PostTerminal.encode({ workspaceId: base + w, postId: p, status: 'failed', occurredAt: new Date().toISOString(), platforms: [] }).finish();
        publishes.push(publishEvent(js, 'posts.post.terminal', payload, `${consumer}-${w}-${p}`));
      }
    }
    await Promise.all(publishes);
    const deliveries = connection.collection<{ _id: string; status: string; attempts: number }>('deliveries');
    await expect.poll(() => deliveries.countDocuments(), { timeout: 90_000, interval: 20 }).toBe(WORKSPACES * EVENTS_PER_WORKSPACE);

    first.child.kill('SIGKILL');
    await first.stop();
    const attemptedBeforeKill = new Set(seen.map(([id]) => id)).size;
    console.log(`killed with ${attemptedBeforeKill} of 500 deliveries attempted once (${seen.length} requests), the rest not yet attempted`);
    expect(attemptedBeforeKill).toBeLessThan(500);

    const second = await startProcess('webhooks', 'services/webhooks/dist/main.js', env());
    processes.push(second);
    const restartedAt = Date.now();
    await expect.poll(() => delivered.size, { timeout: 240_000, interval: 500 }).toBe(500);
    console.log(`all 500 delivered ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart`);

    const pairs = seen.map(([id, attempt]) => `${id}:${attempt}`);
    expect(new Set(pairs).size, 'no attempt number is ever sent twice').toBe(pairs.length);
    const byId = new Map<string, number[]>();
    for (const [id, attempt] of seen) byId.set(id, [...(byId.get(id) ?? []), attempt]);
    expect(byId.size).toBe(500);
    for (const [id, attempts] of byId) expect(attempts, id).toEqual([...attempts].sort((a, b) => a - b));
    // Claimed attempt numbers run 1..n with no restart (an attempt claimed by the killed process and never
    // sent keeps its number: the receiver then sees 2 first, which is what "continue" means).
    const claims = await connection.collection<{ delivery_id: string; attempt: number }>('attempts').find({}).toArray();
    const claimed = new Map<string, number[]>();
    for (const c of claims) claimed.set(c.delivery_id, [...(claimed.get(c.delivery_id) ?? []), c.attempt]);
    for (const [id, numbers] of claimed)
      expect(
        numbers.sort((a, b) => a - b),
        id,
      ).toEqual(numbers.map((_, i) => i + 1));
    for (const [id, attempts] of byId) expect(claimed.get(id), id).toEqual(expect.arrayContaining(attempts));
    await expect.poll(() => deliveries.countDocuments({ status: 'succeeded' }), { timeout: 30_000, interval: 500 }).toBe(500);
    expect(await deliveries.countDocuments()).toBe(500);
  }, 330_000);
});
