/**
 * Lists right after a bulk import (`BENCH_ONLY=list-import`): workspaces import LIST_IMPORT_POSTS posts
 * each (10,000) through `POST /api/v1/posts/bulk`, 100 a request, into a store holding LIST_IMPORT_STORE_POSTS
 * posts in all (100,000; the rest written straight into the posts database for other workspaces). Right after
 * each import its first `GET /api/v1/posts` is timed (its status too: it must never be a 503); then, on the
 * last workspace, every list query of the contract (filters, sorts, offset pages from the start and deep)
 * LIST_IMPORT_REQUESTS times each with both list caches off (the gateway's answers, the posts service's
 * pages): what a list costs after any write. Prints p50 / p99 per query against the 300 ms p50 goal.
 */
import { performance } from 'node:perf_hooks';
import { connectMongo, type Connection } from '@spa/mongo';
import { createWorkspace, startStack, TEST_INFRA, type Stack, type TestWorkspace } from '@spa/testing';
import { ClientIps } from './client-ips.js';
import { seed } from './lists.js';
import { percentile, tally } from './stats.js';
import { databaseOf } from './store-stats.js';

const progress = (message: string): void => void process.stderr.write(`bench: ${message}\n`);
const clientIps = new ClientIps();
const GOAL_P50_MS = 300;
/** Ids of the straight-written posts, far above the stack's own (its allocator starts at 1). */
const ID_BASE = 700_000_000;

export async function benchListImport(): Promise<void> {
  const perWorkspace = Number(process.env.LIST_IMPORT_POSTS ?? 10_000);
  const inStore = Number(process.env.LIST_IMPORT_STORE_POSTS ?? 100_000);
  const workspaces = Number(process.env.LIST_IMPORT_WORKSPACES ?? 2);
  const requests = Number(process.env.LIST_IMPORT_REQUESTS ?? 15);
  progress('list-import: starting accounts, posts and gateway, both list caches off');
  const stack = await startStack({ gatewayEnv: { TRUST_PROXY: '1', GATEWAY_ANSWER_CACHE: 'false' }, postsEnv: { POSTS_LIST_CACHE: 'false' } });
  let connection: Connection | undefined;
  try {
    const postsDb = await databaseOf(stack.processes.find((p) => p.name === 'posts')!.child.pid!);
    if (!postsDb) throw new Error('list-import: could not tell the posts database');
    connection = await connectMongo(TEST_INFRA.mongoUrl, postsDb);
    const background = Math.max(0, inStore - workspaces * perWorkspace);
    progress(`list-import: writing ${background} posts of other workspaces straight into the store`);
    for (let i = 0, written = 0; written < background; i++) {
      const size = Math.min(10_000, background - written);
      const other = await createWorkspace(stack, { tier: 'pro' });
      await seed(connection, other.workspaceId, ID_BASE + i * 20_000, size);
      written += size;
    }
    const firsts: string[] = [];
    let last: TestWorkspace | undefined;
    for (let w = 0; w < workspaces; w++) {
      last = await createWorkspace(stack, { tier: 'pro' });
      const accounts = await Promise.all(
        ['twitter', 'mastodon', 'linkedin'].map(
          async (platform) => (await stack.accounts.connectSocialAccount({ workspaceId: last!.workspaceId, platform, username: `imp_${platform}`, sandbox: true })).socialAccountId,
        ),
      );
      const t = performance.now();
      await importPosts(stack, last.apiKey, accounts, perWorkspace);
      const importS = (performance.now() - t) / 1000;
      const first = await timed(stack, last.apiKey, '/posts');
      firsts.push(`| ${w + 1} | ${perWorkspace} | ${importS.toFixed(1)} | ${first.status} | ${first.ms.toFixed(0)} |`);
      progress(`list-import: workspace ${w + 1} imported in ${importS.toFixed(1)} s; first GET /posts ${first.status} in ${first.ms.toFixed(0)} ms`);
    }
    const rows: string[] = [];
    for (const [name, path] of queries()) {
      const ms: number[] = [];
      const failures: Record<string, number> = {};
      for (let i = 0; i < requests; i++) {
        const r = await timed(stack, last!.apiKey, path);
        ms.push(r.ms);
        if (r.status !== 200) tally(failures, `HTTP ${r.status}`);
      }
      const sorted = Float64Array.from(ms).sort();
      const p50 = percentile(sorted, 0.5);
      const failed = Object.entries(failures).map(([kind, n]) => `${n}× ${kind}`);
      rows.push(`| ${name} | \`${path}\` | ${p50.toFixed(0)} | ${percentile(sorted, 0.99).toFixed(0)} | ${failed.join(', ') || '-'} | ${p50 < GOAL_P50_MS ? 'yes' : 'NO'} |`);
      progress(`list-import: ${name} p50 ${p50.toFixed(0)} ms`);
    }
    console.log(`\nLists after a bulk import: ${workspaces} workspaces of ${perWorkspace} posts imported through POST /posts/bulk, ${inStore} posts in the store\n`);
    console.log('| workspace | posts imported | import s | first GET /posts status | first GET /posts ms |');
    console.log('|---|---|---|---|---|');
    for (const row of firsts) console.log(row);
    console.log(`\nEvery list query of the contract on the last workspace, both list caches off, ${requests} sequential requests each\n`);
    console.log(`| query | path | p50 ms | p99 ms | failures | p50 < ${GOAL_P50_MS} ms |`);
    console.log('|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
  } finally {
    await connection?.close();
    await stack.stop();
  }
}

/** Imports `count` posts, 100 a request: a third drafts, the rest scheduled over the next 30 days on the accounts in turn. */
async function importPosts(stack: Stack, apiKey: string, accounts: number[], count: number): Promise<void> {
  const now = Date.now();
  for (let start = 0; start < count; start += 100) {
    const posts = Array.from({ length: Math.min(100, count - start) }, (_, k) => {
      const i = start + k;
      const account = accounts[i % accounts.length]!;
      if (i % 3 === 0) return { body: `imported draft ${i}`, post_accounts: [{ social_account_id: account }] };
      return { body: `imported post ${i}`, scheduled_at: new Date(now + 86_400_000 + ((i * 7919) % (29 * 86_400)) * 1000).toISOString(), post_accounts: [{ social_account_id: account }] };
    });
    const res = await stack.api('/posts/bulk', { token: apiKey, body: { posts }, headers: { 'X-Forwarded-For': clientIps.next() } });
    if (res.status !== 201) throw new Error(`list-import: bulk create failed: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  }
}

/** Every list query of the contract, by name. */
function queries(): Array<[string, string]> {
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
  return [
    ['default (queue statuses)', '/posts'],
    ['drafts', '/posts?status=draft'],
    ['scheduled, by time', '/posts?status=scheduled&sort=scheduled_at&sort_direction=asc&limit=20'],
    ['created, newest, 200', '/posts?status=draft,scheduled&sort=created_at&sort_direction=desc&limit=200'],
    ['one platform', '/posts?platform=twitter'],
    ['one source', '/posts?source=api'],
    ['a week window', `/posts?scheduled_after=${day(7)}&scheduled_before=${day(14)}&sort=scheduled_at`],
    ['offset page 2', '/posts?status=draft&offset=100'],
    ['offset page 10', '/posts?offset=900'],
    ['deep offset', '/posts?sort=id&offset=9800'],
  ];
}

async function timed(stack: Stack, apiKey: string, path: string): Promise<{ ms: number; status: number }> {
  const t = performance.now();
  const res = await stack.api(path, { token: apiKey, headers: { 'X-Forwarded-For': clientIps.next() } });
  return { ms: performance.now() - t, status: res.status };
}
