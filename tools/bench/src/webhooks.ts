/**
 * Webhook delivery benchmark: the real webhooks process, 100 healthy local receivers, one that answers
 * after 4.9 s and one that never answers. Prints deliveries per second to the healthy receivers and the
 * latency from publishing a terminal event to its first attempt. Asserts nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { PostTerminal } from '@spa/contracts/events/v1/publishing';
import { WebhooksServiceClient } from '@spa/contracts/webhooks/v1/webhooks';
import { createClient } from '@spa/grpc';
import { connectNats, jetstream, publishEvent } from '@spa/nats';
import { dropDatabases, startProcess, TEST_INFRA, uniqueName } from '@spa/testing';
import { cpuDelta, cpuPerUnit, cpuSnapshot } from './cpu.js';
import { percentile } from './stats.js';
import { seedWebhookHistory } from './history.js';
import { analyzeDatabases, perUnit, settleStats, storeDelta, storeSnapshot } from './store-stats.js';

const HEALTHY = 100;

interface Receiver {
  server: http.Server;
  url: string;
}

async function receiver(onRequest: (body: string, res: http.ServerResponse) => void): Promise<Receiver> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => onRequest(Buffer.concat(chunks).toString('utf8'), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

/** BENCH_WEBHOOK_EVENTS events per receiver; BENCH_WEBHOOK_HISTORY finished deliveries stored before the burst. */
export async function benchWebhooks(eventsPerWorkspace = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10), history = Number(process.env.BENCH_WEBHOOK_HISTORY ?? 20_000)): Promise<void> {
  const db = uniqueName('bench_webhooks');
  const consumer = uniqueName('bench_webhooks_consumer');
  const publishedAt = new Map<string, number>();
  const firstAttemptMs: number[] = [];
  let healthyDone = 0;
  let lastHealthyAt = 0;
  const total = HEALTHY * eventsPerWorkspace;
  let allDone: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (allDone = resolve));

  const healthy = await Promise.all(
    Array.from({ length: HEALTHY }, () =>
      receiver((body, res) => {
        const { post_id: postId, data } = JSON.parse(body) as { post_id: number; data: { status: string } };
        const key = `${data.status}:${postId}`;
        const sent = publishedAt.get(key);
        if (sent !== undefined) {
          firstAttemptMs.push(performance.now() - sent);
          publishedAt.delete(key);
        }
        res.writeHead(200).end();
        healthyDone++;
        lastHealthyAt = performance.now();
        if (healthyDone === total) allDone();
      }),
    ),
  );
  const slow = await receiver((_body, res) => setTimeout(() => res.writeHead(200).end(), 4_900));
  const dead = await receiver(() => undefined); // accepts, never answers
  const receivers = [...healthy, slow, dead];

  const webhooks = await startProcess('webhooks', 'services/webhooks/dist/main.js', {
    MONGO_URL: TEST_INFRA.mongoUrl,
    NATS_URL: TEST_INFRA.natsUrl,
    MONGO_DB: db,
    GRPC_PORT: '0',
    SECRETS_KEY: 'bench-secrets-key-of-at-least-32-characters',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOKS_CONSUMER: consumer,
    LOG_LEVEL: 'error',
    // BENCH_WEBHOOKS_CPU_PROF=<dir>: the webhooks process writes a V8 CPU profile there when it stops.
    ...(process.env.BENCH_WEBHOOKS_CPU_PROF ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_WEBHOOKS_CPU_PROF}` } : {}),
  });
  const client = createClient(WebhooksServiceClient, webhooks.address);
  const nc = await connectNats(TEST_INFRA.natsUrl, 'bench-webhooks');
  const base = 500_000 + Math.floor(Math.random() * 99_999);
  try {
    // One workspace per receiver; healthy workspaces are base..base+99, then the slow and the dead one.
    for (const [i, r] of receivers.entries()) await client.createWebhook({ workspaceId: base + i, url: r.url, events: [] });
    // A store that has been delivering for a while, with PostgreSQL's statistics of it (as autovacuum keeps them).
    await seedWebhookHistory(db, history);
    await analyzeDatabases([db]);
    const js = jetstream(nc);
    const pids = [webhooks.child.pid!];
    await settleStats();
    const before = await storeSnapshot(pids, [db]);
    // The receivers and the event publisher run in this process: their CPU is part of the burst too.
    const cpuOf = () =>
      cpuSnapshot([
        { name: 'webhooks', pid: webhooks.child.pid! },
        { name: 'bench (receivers, publisher)', pid: process.pid },
      ]);
    const cpuBefore = await cpuOf();
    const started = performance.now();
    const publishes: Promise<void>[] = [];
    for (let e = 0; e < eventsPerWorkspace; e++) {
      for (let i = 0; i < receivers.length; i++) {
        const postId = (i + 1) * 100_000 + e;
        if (i < HEALTHY) publishedAt.set(`posted:${postId}`, performance.now());
        const payload = PostTerminal.encode({ workspaceId: base + i, postId, status: 'posted', occurredAt: new Date().toISOString(), platforms: [] }).finish();
        publishes.push(publishEvent(js, 'posts.post.terminal', payload, `${consumer}-${i}-${e}`));
      }
    }
    await Promise.all(publishes);
    await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, 600_000))]);
    const seconds = (lastHealthyAt - started) / 1000;
    const cpu = cpuDelta(cpuBefore, await cpuOf());
    // The slow and dead receivers' first attempts are part of the work too: every event has one delivery.
    await settleStats();
    const store = perUnit(storeDelta(before, await storeSnapshot(pids, [db])), receivers.length * eventsPerWorkspace);
    const sorted = Float64Array.from(firstAttemptMs).sort();
    console.log(
      `\nwebhooks: ${total} events to ${HEALTHY} healthy receivers (+${eventsPerWorkspace} each to one 4.9 s and one dead receiver), ${history} finished deliveries stored before, FerretDB at ${TEST_INFRA.mongoUrl}\n`,
    );
    console.log('| measure | value |');
    console.log('|---|---|');
    console.log(`| healthy deliveries completed | ${healthyDone} / ${total} |`);
    console.log(`| deliveries per second (healthy) | ${(healthyDone / seconds).toFixed(1)} |`);
    console.log(`| terminal event -> first attempt p50 | ${percentile(sorted, 0.5).toFixed(0)} ms |`);
    console.log(`| terminal event -> first attempt p99 | ${percentile(sorted, 0.99).toFixed(0)} ms |`);
    console.log(`| store commands per delivery (all ${receivers.length * eventsPerWorkspace}, from the event to the end of the run) | ${store.commands} (${store.top}) |`);
    console.log(`| PostgreSQL rows read per delivery | ${store.rows} |`);
    console.log(
      `| CPU ms per delivery (all ${receivers.length * eventsPerWorkspace}; the store's, the webhooks process's, the receivers') | ${cpuPerUnit(cpu, receivers.length * eventsPerWorkspace)} |`,
    );
    console.log(`| scans on the webhooks database | ${store.scans} |`);
  } finally {
    client.close();
    await webhooks.stop();
    await (await jetstreamManager(nc)).consumers.delete('POSTS', consumer).catch(() => undefined);
    await nc.drain();
    for (const r of receivers) {
      r.server.closeAllConnections();
      r.server.close();
    }
    await dropDatabases([db]);
  }
}
