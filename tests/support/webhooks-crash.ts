import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { PostTerminal } from '@spa/contracts/events/v1/publishing';
import { connectNats, jetstream, publishEvent, type NatsConnection } from '@spa/nats';
import { dropDatabases, REPO_ROOT, startProcess, TEST_INFRA, uniqueName, type RunningProcess } from '@spa/testing';
import mongoose from 'mongoose';
import { afterAll, beforeAll, expect } from 'vitest';

/** Runs the real `spa-admin` CLI against a webhooks service at `address` and answers its JSON output. */
function webhookAdmin(address: string, args: string[]): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'tools/admin/dist/main.js'), ...args], { env: { ...process.env, WEBHOOKS_ADDR: address } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Record<string, any>) : reject(new Error(`spa-admin exited ${code}`))));
  });
}

/** Answers one request the receiver saw: attempt `attempt` of delivery `id`. */
export type Receive = (id: string, attempt: number, res: http.ServerResponse) => void;

/**
 * The world of a SIGKILL test of the real webhooks process: its own database and durable consumer, a
 * real HTTP receiver that records every request ([delivery id, attempt], in order) and answers as
 * `receive` says, and the store to look into. Call once per test file, at the top level.
 */
export function webhooksCrashWorld(name: string, receive: Receive, extraEnv: Record<string, string> = {}) {
  const db = uniqueName(`t_${name}`);
  const consumer = uniqueName(`t_${name}_consumer`);
  let nc: NatsConnection;
  let receiver: http.Server;
  let receiverUrl = '';
  const processes: RunningProcess[] = [];
  const w = {
    /** Every request the receiver saw: [delivery id, attempt]. */
    seen: [] as Array<[string, number]>,
    connection: undefined as unknown as mongoose.Connection,
    receiver: () => receiver,

    /** Starts a webhooks process on the world's database and consumer. */
    async start(): Promise<RunningProcess> {
      const started = await startProcess('webhooks', 'services/webhooks/dist/main.js', {
        MONGO_URL: TEST_INFRA.mongoUrl,
        NATS_URL: TEST_INFRA.natsUrl,
        MONGO_DB: db,
        GRPC_PORT: '0',
        SECRETS_KEY: 'crash-test-secrets-key-of-32-characters-or-more',
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        WEBHOOKS_CONSUMER: consumer,
        WEBHOOKS_POLL_INTERVAL_MS: '200',
        ...extraEnv,
      });
      processes.push(started);
      return started;
    },

    /**
     * Creates one webhook to the receiver in each of the workspaces `firstWorkspace`.. (`workspaces` of
     * them, through spa-admin), then publishes `perWorkspace` post terminal events of `status` for each.
     */
    async createWebhooksAndPublish(address: string, workspaces: number, perWorkspace: number, status: string, firstWorkspace: number): Promise<void> {
      for (let i = 0; i < workspaces; i++) await webhookAdmin(address, ['webhook', 'create', '--workspace', String(firstWorkspace + i), '--url', receiverUrl]);
      const js = jetstream(nc);
      const publishes: Promise<void>[] = [];
      for (let i = 0; i < workspaces; i++) {
        for (let p = 1; p <= perWorkspace; p++) {
          const payload = PostTerminal.encode({ workspaceId: firstWorkspace + i, postId: p, status, occurredAt: new Date().toISOString(), platforms: [] }).finish();
          publishes.push(publishEvent(js, 'posts.post.terminal', payload, `${consumer}-${i}-${p}`));
        }
      }
      await Promise.all(publishes);
    },

    deliveries() {
      return w.connection.collection<{ _id: string; status: string; attempts: number }>('deliveries');
    },

    /**
     * Asserts that no attempt was sent twice, each delivery's attempts in ascending order, and that every
     * delivery's claimed attempt numbers run 1..n with no restart (an attempt claimed by a killed process
     * and never sent keeps its number: the receiver then sees the next first, which is what "continue"
     * means) and include every attempt sent. Answers the attempts seen per delivery.
     */
    async expectAttemptsOnce(): Promise<Map<string, number[]>> {
      const pairs = w.seen.map(([id, attempt]) => `${id}:${attempt}`);
      expect(new Set(pairs).size, 'no attempt number is ever sent twice').toBe(pairs.length);
      const claims = await w.connection.collection<{ delivery_id: string; attempt: number }>('attempts').find({}).toArray();
      const claimed = new Map<string, number[]>();
      for (const c of claims) claimed.set(c.delivery_id, [...(claimed.get(c.delivery_id) ?? []), c.attempt]);
      for (const [id, numbers] of claimed)
        expect(
          numbers.sort((a, b) => a - b),
          id,
        ).toEqual(numbers.map((_, i) => i + 1));
      const byId = new Map<string, number[]>();
      for (const [id, attempt] of w.seen) byId.set(id, [...(byId.get(id) ?? []), attempt]);
      for (const [id, attempts] of byId) {
        expect(attempts, id).toEqual([...attempts].sort((a, b) => a - b));
        expect(claimed.get(id), id).toEqual(expect.arrayContaining(attempts));
      }
      return byId;
    },
  };

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      req.resume();
      const id = String(req.headers['x-service-event-id']);
      const attempt = Number(req.headers['x-service-attempt']);
      w.seen.push([id, attempt]);
      receive(id, attempt, res);
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    nc = await connectNats(TEST_INFRA.natsUrl, `${name}-test`);
    w.connection = await mongoose.createConnection(TEST_INFRA.mongoUrl, { dbName: db }).asPromise();
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await (await jetstreamManager(nc)).consumers.delete('POSTS', consumer).catch(() => undefined);
    await nc?.drain();
    await w.connection?.close();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    await dropDatabases([db]);
  });
  return w;
}
