/**
 * Lists that scale: first-page latency of `GET /api/v1/posts?status=scheduled&sort=
 * scheduled_at&limit=20` through the gateway in a workspace of 1,000, 10,000 and 100,000 posts
 * (`BENCH_LIST_SIZES`), uncached (each request varies `scheduled_before`, past every post, so the page is
 * the same but the list cache cannot answer) and cached (one URL again). Each size is its own workspace,
 * its posts written straight into the posts database in bulk, and its list index built the way the
 * posts service builds it for posts that predate the index (the backfill), when the code has one.
 * Every answer's `total_count` is checked against the number of scheduled posts seeded.
 */
import { performance } from 'node:perf_hooks';
import { connectMongo, type Connection } from '@spa/mongo';
import { createWorkspace, startStack, TEST_INFRA, type Stack } from '@spa/testing';
import { ClientIps } from './client-ips.js';
import { percentile, tally } from './stats.js';
import { databaseOf } from './store-stats.js';

const progress = (message: string): void => void process.stderr.write(`bench: ${message}\n`);
const BATCH = 2_000;
/** Ids far above the stack's own (its allocator starts at 1) and the publishing history's (500,000,000). */
const ID_BASE = 600_000_000;
const PLATFORMS = ['twitter', 'mastodon', 'bluesky', 'linkedin'];
/** A fresh client address per request (X-Forwarded-For; the gateway trusts it here), so the per-IP limit never answers. */
const clientIps = new ClientIps();

interface Measured {
  p50: number;
  p99: number;
  errors: number;
  /** The failed answers by HTTP status. */
  failures: Record<string, number>;
  wrongTotals: number;
}

export async function benchLists(): Promise<void> {
  const sizes = (process.env.BENCH_LIST_SIZES ?? '1000,10000,100000').split(',').map(Number);
  const requests = Number(process.env.BENCH_LIST_REQUESTS ?? 30);
  progress('lists: starting accounts, posts and gateway');
  const stack = await startStack({ gatewayEnv: { TRUST_PROXY: '1' } });
  let connection: Connection | undefined;
  try {
    const posts = stack.processes.find((p) => p.name === 'posts')!;
    const postsDb = await databaseOf(posts.child.pid!);
    if (!postsDb) throw new Error('lists: could not tell the posts database');
    connection = await connectMongo(TEST_INFRA.mongoUrl, postsDb);
    const buildIndex = await indexBuilder(connection);
    const rows: string[] = [];
    let idOffset = 0;
    for (const size of sizes) {
      const ws = await createWorkspace(stack, { tier: 'pro' });
      progress(`lists: seeding ${size} posts`);
      let t = performance.now();
      const scheduled = await seed(connection, ws.workspaceId, ID_BASE + idOffset, size);
      idOffset += size + CHUNK_GAP;
      const seedS = (performance.now() - t) / 1000;
      t = performance.now();
      if (buildIndex) await buildIndex(ws.workspaceId);
      const buildS = (performance.now() - t) / 1000;
      progress(`lists: ${size} posts seeded in ${seedS.toFixed(1)} s, index built in ${buildIndex ? `${buildS.toFixed(1)} s` : '- (code without a list index)'}; measuring`);
      const path = (i: number | undefined) =>
        `/posts?status=scheduled&sort=scheduled_at&limit=20${i === undefined ? '' : `&scheduled_before=${new Date(Date.UTC(2100, 0, 1) + i * 1000).toISOString()}`}`;
      const first = await timed(stack, ws.apiKey, path(-1), scheduled);
      const uncached = await measure(stack, ws.apiKey, requests, (i) => path(i), scheduled);
      const cached = await measure(stack, ws.apiKey, requests, () => path(undefined), scheduled);
      rows.push(
        `| ${size} | ${scheduled} | ${seedS.toFixed(1)} | ${buildIndex ? buildS.toFixed(1) : '-'} | ${first.ok ? first.ms.toFixed(0) : `HTTP ${first.status}`} | ${fmt(uncached)} | ${fmt(cached)} |`,
      );
    }
    console.log(`\nLists: GET /api/v1/posts?status=scheduled&sort=scheduled_at&limit=20, ${requests} sequential requests each\n`);
    console.log(
      '| posts in workspace | scheduled (total_count) | seed s | index build s | first request ms | uncached p50 / p99 ms (errors; wrong totals) | cached p50 / p99 ms (errors; wrong totals) |',
    );
    console.log('|---|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
  } finally {
    await connection?.close();
    await stack.stop();
  }
}

/** Ids of consecutive sizes start on a fresh chunk of the list index. */
const CHUNK_GAP = 1_000;

const fmt = (m: Measured): string => {
  const kinds = Object.entries(m.failures).map(([kind, n]) => `${n}× ${kind}`);
  return `${m.p50.toFixed(0)} / ${m.p99.toFixed(0)} (${m.errors}${kinds.length ? `: ${kinds.join(', ')}` : ''}; ${m.wrongTotals})`;
};

async function timed(stack: Stack, apiKey: string, path: string, expectedTotal: number): Promise<{ ms: number; ok: boolean; status: number; rightTotal: boolean }> {
  const t = performance.now();
  const res = await stack.api(path, { token: apiKey, headers: { 'X-Forwarded-For': clientIps.next() } });
  const ms = performance.now() - t;
  const total = res.status === 200 ? (res.json as { meta?: { total_count?: number } }).meta?.total_count : undefined;
  return { ms, ok: res.status === 200, status: res.status, rightTotal: total === expectedTotal };
}

async function measure(stack: Stack, apiKey: string, n: number, path: (i: number) => string, expectedTotal: number): Promise<Measured> {
  const ms: number[] = [];
  let errors = 0;
  let wrongTotals = 0;
  const failures: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    const r = await timed(stack, apiKey, path(i), expectedTotal);
    ms.push(r.ms);
    if (!r.ok) {
      errors++;
      tally(failures, `HTTP ${r.status}`);
    } else if (!r.rightTotal) wrongTotals++;
  }
  const sorted = Float64Array.from(ms).sort();
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), errors, failures, wrongTotals };
}

/** Writes `size` posts of one workspace (a third scheduled over 90 days from tomorrow); returns how many are scheduled. */
export async function seed(connection: Connection, workspaceId: number, firstId: number, size: number): Promise<number> {
  const posts = connection.db!.collection<{ _id: number }>('posts');
  const now = Date.now();
  let scheduled = 0;
  for (let start = 0; start < size; start += BATCH) {
    const docs = Array.from({ length: Math.min(BATCH, size - start) }, (_, k) => {
      const i = start + k;
      const id = firstId + i;
      const status = ['scheduled', 'draft', 'posted'][i % 3]!;
      if (status === 'scheduled') scheduled++;
      const at = new Date(now - (size - i) * 60_000);
      const platform = PLATFORMS[i % PLATFORMS.length]!;
      return {
        _id: id,
        workspace_id: workspaceId,
        status,
        flexible: false,
        // Scheduled from a day ahead, so the stack's scheduler dispatches none of them during the bench.
        scheduled_at: status === 'draft' ? null : new Date(status === 'scheduled' ? now + 86_400_000 + ((i * 7919) % 7_776_000) * 1000 : at.getTime()),
        posted_at: status === 'posted' ? at : null,
        disconnected: false,
        source: 'api',
        recurrence_jitter_enabled: false,
        evergreen: false,
        evergreen_variations: [],
        created_at: at,
        updated_at: at,
        body: `bench list post ${i}: a body of about the length a real post has, with a link https://example.com/${i}`,
        dry_run: false,
        post_contents: [{ id: id * 2, platform, body: `bench list post ${i}`, content_type: 'text', position: 0, metadata: {} }],
        post_accounts: [{ id: id * 2, social_account_id: 7_000 + (i % 4), platform, username: 'bench' }],
      };
    });
    await posts.insertMany(docs);
  }
  return scheduled;
}

/**
 * The posts service's own backfill of a workspace's list index, run here on the bench's connection;
 * undefined when the posts code has no list index (the code before it, for the BEFORE figures).
 */
async function indexBuilder(connection: Connection): Promise<((workspaceId: number) => Promise<void>) | undefined> {
  const posts = (await import('@spa/posts').catch(() => undefined)) as unknown as { MongoPostsStore?: new (c: Connection) => { listIndex: { backfill(ws: number): Promise<void> } } } | undefined;
  if (!posts?.MongoPostsStore) return undefined;
  const store = new posts.MongoPostsStore(connection);
  return (workspaceId) => store.listIndex.backfill(workspaceId);
}
