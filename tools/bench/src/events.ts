/**
 * Events benchmark, on the real processes: (1) events per second from a change to its delivery: posts created in
 * bulk through the gateway, each announced as post.created through the posts outbox, the EVENTS stream and the
 * webhooks service, counted at a local receiver; (2) the time of a GET /events page over a large event log,
 * seeded straight into the EVENTS stream (as the owners' relays publish), for a busy workspace (most of the log),
 * a quiet one (one event in ten) and a rare one (one in a thousand), from cursors spread over the log. Prints figures; asserts nothing.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { eventKindCodec } from '@spa/contracts/codecs';
import { PublicEvent } from '@spa/contracts/events/v1/public';
import { connectNats, ensureStream, eventSubject, EVENTS_STREAM, jetstream, publishEvent } from '@spa/nats';
import { createWorkspace, startStack, TEST_INFRA, type Stack } from '@spa/testing';

const progress = (message: string): void => void process.stderr.write(`bench: ${message}\n`);
/** The q-th quantile (0..1) of ascending values. */
const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;

/** BENCH_EVENTS_CHANGES posts created (one event each) in BENCH_EVENTS_WEBHOOKS workspaces; BENCH_EVENTS_LOG events in the log read by pages. */
export async function benchEvents(changes = Number(process.env.BENCH_EVENTS_CHANGES ?? 2_000), logSize = Number(process.env.BENCH_EVENTS_LOG ?? 1_000_000)): Promise<void> {
  progress('events: starting a stack with the webhooks service');
  const stack = await startStack({ webhooks: true });
  try {
    await changeToDelivery(stack, changes, Number(process.env.BENCH_EVENTS_WEBHOOKS ?? 10));
    await logPages(stack, logSize);
  } finally {
    await stack.stop();
    const nc = await connectNats(TEST_INFRA.natsUrl, 'bench-events-cleanup');
    const jsm = await jetstreamManager(nc);
    await jsm.streams.purge(EVENTS_STREAM.name, { filter: `events.${stack.jobsNamespace}.>` }).catch(() => undefined);
    await jsm.consumers.delete(EVENTS_STREAM.name, `webhooks-events-${stack.jobsNamespace}`).catch(() => undefined);
    await nc.close();
  }
}

async function changeToDelivery(stack: Stack, changes: number, webhooks: number): Promise<void> {
  const arrived = new Map<number, number>();
  const lag: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event: string; post_id?: number; occurred_at: string };
      if (body.event === 'post.created' && body.post_id !== undefined && !arrived.has(body.post_id)) {
        arrived.set(body.post_id, Date.now());
        lag.push(Date.now() - Date.parse(body.occurred_at));
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The events as they reach the stream (a plain subscription to their subject): the relay's share of the latency.
  const nc = await connectNats(TEST_INFRA.natsUrl, 'bench-events-watch');
  const relayed: number[] = [];
  try {
    const sub = nc.subscribe(`events.${stack.jobsNamespace}.*.post.created`, {
      callback: (_err, msg) => void relayed.push(Date.now() - Date.parse(PublicEvent.decode(msg.data).occurredAt)),
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    // One webhook per workspace: a webhook has at most WEBHOOKS_CONCURRENCY_PER_WEBHOOK (8) attempts out at once.
    const workspaces = await Promise.all(
      Array.from({ length: webhooks }, async () => {
        const ws = await createWorkspace(stack, { tier: 'pro' });
        const created = await stack.admin(['webhook', 'create', '--workspace', String(ws.workspaceId), '--url', url, '--events', 'post.created']);
        if (created.code !== 0) throw new Error(`events: webhook create failed: ${created.stderr}`);
        const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'mastodon', username: `bench_${randomUUID().slice(0, 8)}`, sandbox: true });
        return { apiKey: ws.apiKey, socialAccountId };
      }),
    );
    progress(`events: ${changes} posts created in bulk in ${webhooks} workspaces (100 a request, 4 requests at once), each delivered as post.created to its workspace's webhook`);
    const start = Date.now();
    const bodies = Array.from({ length: Math.ceil(changes / 100) }, (_, i) => {
      const ws = workspaces[i % workspaces.length]!;
      return { ws, posts: Array.from({ length: Math.min(100, changes - i * 100) }, (_, j) => ({ body: `bench event ${i * 100 + j}`, post_accounts: [{ social_account_id: ws.socialAccountId }] })) };
    });
    let next = 0;
    const worker = async () => {
      while (next < bodies.length) {
        const { ws, posts } = bodies[next++]!;
        const res = await stack.api('/posts/bulk', { token: ws.apiKey, body: { posts } });
        if (res.status !== 201) throw new Error(`events: bulk create answered ${res.status}: ${res.text.slice(0, 300)}`);
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    const writtenMs = Date.now() - start;
    const deadline = Date.now() + 10 * 60_000;
    while (arrived.size < changes && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const lastMs = Math.max(...arrived.values()) - start;
    sub.unsubscribe();
    const sorted = [...lag].sort((a, b) => a - b);
    const toStream = [...relayed].sort((a, b) => a - b);
    console.log(`\nEvents: change → delivery (${changes} posts created through POST /posts/bulk in ${webhooks} workspaces, one post.created each, each workspace's webhook chose it)`);
    console.log(`  written in ${(writtenMs / 1000).toFixed(1)} s; ${arrived.size} of ${changes} delivered, the last ${(lastMs / 1000).toFixed(1)} s after the first request`);
    console.log(`  events per second, first request to last delivery: ${((arrived.size / lastMs) * 1000).toFixed(0)}`);
    console.log(`  change → delivery latency: p50 ${quantile(sorted, 0.5)} ms, p95 ${quantile(sorted, 0.95)} ms, max ${sorted.at(-1)} ms`);
    console.log(`  of which change → EVENTS stream (the posts outbox and relay): p50 ${quantile(toStream, 0.5)} ms, p95 ${quantile(toStream, 0.95)} ms (${toStream.length} seen)`);
  } finally {
    await nc.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

async function logPages(stack: Stack, size: number): Promise<void> {
  const [busy, quiet, rare] = [await createWorkspace(stack, { tier: 'pro' }), await createWorkspace(stack, { tier: 'pro' }), await createWorkspace(stack, { tier: 'pro' })];
  const nc = await connectNats(TEST_INFRA.natsUrl, 'bench-events-seed');
  const js = jetstream(nc);
  await ensureStream(nc, EVENTS_STREAM);
  progress(`events: seeding ${size} events into the EVENTS stream (a busy workspace: 9 in 10; a quiet one: 1 in 10; a rare one: 1 in 1,000)`);
  const seedStart = Date.now();
  const kinds = ['post.created', 'post.updated', 'post.scheduled', 'post.deleted'] as const;
  const occurredAt = new Date().toISOString();
  for (let i = 0; i < size; i += 1_000) {
    const batch: Array<Promise<void>> = [];
    for (let n = i; n < Math.min(size, i + 1_000); n++) {
      const workspaceId = n % 1_000 === 999 ? rare.workspaceId : n % 10 === 9 ? quiet.workspaceId : busy.workspaceId;
      const kind = kinds[n % kinds.length]!;
      const id = randomUUID();
      const bytes = PublicEvent.encode({
        id,
        workspaceId,
        kind: eventKindCodec.toProto(kind),
        version: 1,
        occurredAt,
        dataJson: JSON.stringify({ post_id: n + 1, status: 'draft', scheduled_at: null }),
      }).finish();
      batch.push(publishEvent(js, eventSubject(stack.jobsNamespace, workspaceId, kind), bytes, id, stack.jobsNamespace));
    }
    await Promise.all(batch);
    if (i % 100_000 === 0 && i) progress(`events: ${i} seeded`);
  }
  const seedS = (Date.now() - seedStart) / 1000;
  await nc.close();

  const time = async (ws: { apiKey: string }, after: number, limit: number, kinds = ''): Promise<{ ms: number; count: number }> => {
    const t0 = performance.now();
    const res = await stack.api(`/events?after=${after}&limit=${limit}${kinds ? `&kinds=${kinds}` : ''}`, { token: ws.apiKey });
    if (res.status !== 200) throw new Error(`events: GET /events answered ${res.status}: ${res.text.slice(0, 300)}`);
    return { ms: performance.now() - t0, count: (res.json.events as unknown[]).length };
  };
  // The first page gives the log's first cursor; cursors are spread evenly over the seeded sequences from there.
  const first = (await stack.api('/events?limit=1', { token: busy.apiKey })).json as { events: Array<{ cursor: string }> };
  const low = Number(first.events[0]?.cursor ?? 0);
  const spread = (k: number) => Array.from({ length: k }, (_, i) => low + Math.floor((size * i) / k));
  const SAMPLES = 15;
  const cases: Array<[string, { apiKey: string }, number, string]> = [
    ['busy workspace, limit 100', busy, 100, ''],
    ['busy workspace, limit 1000', busy, 1_000, ''],
    ['busy workspace, one kind (1 in 4), limit 100', busy, 100, 'post.deleted'],
    ['quiet workspace (1 in 10 of the log), limit 100', quiet, 100, ''],
    ['quiet workspace, limit 1000', quiet, 1_000, ''],
    ['rare workspace (1 in 1,000 of the log), limit 100', rare, 100, ''],
  ];
  console.log(
    `\nEvents: GET /events page time over a log of ${size} events (seeded in ${seedS.toFixed(0)} s, ${(size / seedS).toFixed(0)} events/s), ${SAMPLES} pages each from cursors spread over the log`,
  );
  for (const [name, ws, limit, kind] of cases) {
    await time(ws, low, limit, kind); // warm
    const runs: Array<{ ms: number; count: number }> = [];
    for (const after of spread(SAMPLES)) runs.push(await time(ws, after, limit, kind));
    const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
    const events = runs.reduce((n, r) => n + r.count, 0);
    console.log(`  ${name}: p50 ${quantile(ms, 0.5).toFixed(0)} ms, p95 ${quantile(ms, 0.95).toFixed(0)} ms, ${(events / runs.length).toFixed(0)} events a page`);
  }
}
