/**
 * Publishing benchmark: N posts due at the same instant (or spread evenly over BENCH_PUBLISH_SPREAD_S
 * seconds), each to 3 sandbox accounts (X, Mastodon, Bluesky) whose API answers after 50 ms; the real
 * posts (scheduler), publisher, accounts, analytics (which tracks every published target) and sandbox
 * processes, over a store already holding a history of published posts (their attempts, dispatches and
 * outbox entries too) and, with BENCH_PUBLISH_FUTURE, posts scheduled a week ahead. Prints the time until
 * every post is terminal, the lag from `scheduled_at` to the platform call and to the post's terminal
 * write, store commands and PostgreSQL rows read per target, and the exactly-once check (sandbox creates
 * per target). Asserts nothing.
 */
import mongoose from 'mongoose';
import { FULL_SCAN_INTERVAL_MS } from '@spa/posts';
import { createWorkspace, request, startStack, TEST_INFRA, type Stack } from '@spa/testing';
import { coresBusy, cpuDelta, cpuPerUnit, cpuSnapshot, type CpuSnapshot } from './cpu.js';
import { percentile } from './stats.js';
import { seedDuePosts, seedHistory } from './history.js';
import { analyzeDatabases, databaseOf, perUnit, settleStats, storeDelta, storeSnapshot, type StoreSnapshot } from './store-stats.js';

const PLATFORMS = ['twitter', 'mastodon', 'bluesky'] as const;
/** Posts per bulk create: small enough to finish within the gateway's deadline on a loaded machine. */
const BULK = 20;

interface Run {
  publishers: number;
  existing: number;
  posts: number;
  seconds: number;
  /** Due time of the first post to its last due time (0: all due at once). */
  spreadMs: number;
  lagP50: number;
  lagP99: number;
  /** From each post's due time to its terminal write (its `updated_at` as stored): p99 and the longest. */
  terminalP99: number;
  terminalMax: number;
  targetsPerSecond: number;
  store: StoreSnapshot;
  /** The store commands of each service process (several publishers add up under one name). */
  byProcess: Record<string, StoreSnapshot>;
  exactlyOnce: { once: number; missing: number; duplicated: number };
  /** CPU seconds from due time until every post was terminal: the stack's processes and the local store's. */
  cpu: CpuSnapshot;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * When analytics fetches each published target's metrics (BENCH_METRICS_FETCH_OFFSETS): by default the
 * production schedule (services/analytics' METRICS_FETCH_OFFSETS default), whose first fetch comes an
 * hour after posting, so the run measures publishing alone. The test stack's own schedule fetches 2, 6
 * and 15 s after posting ('2s,6s,15s'): set it to measure publishing with three metric waves on top.
 */
const METRICS_FETCH_OFFSETS = process.env.BENCH_METRICS_FETCH_OFFSETS ?? '1h,6h,24h,72h,7d,14d,21d,28d';

/**
 * How often the scheduler reads every due post (BENCH_SCHEDULER_FULL_SCAN_MS): by default the production
 * setting (services/posts' SCHEDULER_FULL_SCAN_INTERVAL_MS default); `1` makes every pass read them all, as
 * every pass did before the scheduler read by due second.
 */
const SCHEDULER_FULL_SCAN_MS = process.env.BENCH_SCHEDULER_FULL_SCAN_MS ?? String(FULL_SCAN_INTERVAL_MS);
/** Posts scheduled a week ahead in another workspace (BENCH_PUBLISH_FUTURE): what a scheduler pass must not read. */
const FUTURE_POSTS = Number(process.env.BENCH_PUBLISH_FUTURE ?? 0);

async function retried<T>(call: () => Promise<T>, tries = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await call();
    } catch (err) {
      if (i >= tries) throw err;
      await sleep(1_000 * i);
    }
  }
}

async function runOnce(posts: number, publishers: number, existing: number, spreadMs: number): Promise<Run> {
  // Client addresses vary per request (X-Forwarded-For), so the per-IP limit does not throttle the bench.
  const stack: Stack = await startStack({
    publishing: true,
    gatewayEnv: { TRUST_PROXY: '1' },
    analyticsEnv: { METRICS_FETCH_OFFSETS },
    postsEnv: { SCHEDULER_FULL_SCAN_INTERVAL_MS: SCHEDULER_FULL_SCAN_MS },
    // BENCH_CPU_PROF=<dir>: every service process writes a V8 CPU profile there when it stops.
    ...(process.env.BENCH_CPU_PROF ? { serviceEnv: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_CPU_PROF}` } } : {}),
  });
  try {
    for (let i = 1; i < publishers; i++) await stack.startPublisher();
    const storeProcs = stack.processes.filter((p) => ['posts', 'publisher', 'accounts', 'analytics'].includes(p.name));
    const pids = storeProcs.map((p) => p.child.pid!).filter(Boolean);
    const dbs = [...new Set((await Promise.all(pids.map(databaseOf))).filter((d): d is string => !!d))];
    const dbOf = async (name: string) => databaseOf(storeProcs.find((p) => p.name === name)!.child.pid!);
    const postsDb = (await dbOf('posts'))!;
    await seedHistory({ postsDb, publisherDb: (await dbOf('publisher'))!, posts: existing });
    if (FUTURE_POSTS) {
      const later = new Date(Date.now() + 7 * 86_400_000);
      const accounts = PLATFORMS.map((platform, k) => ({ id: k + 1, platform, username: `later_${platform}` }));
      await seedDuePosts({ postsDb, workspaceId: (await retried(() => createWorkspace(stack))).workspaceId, accounts, posts: FUTURE_POSTS, dueOf: () => later, firstId: 700_000_000 });
    }
    await analyzeDatabases(dbs);
    await request(stack.sandboxUrl!, '/_sandbox/latency', { body: { ms: 50 } });
    // Setup calls get a few tries: on a loaded machine a 5 s deadline is sometimes missed.
    const ws = await retried(() => createWorkspace(stack));
    const accounts: number[] = [];
    for (const platform of PLATFORMS) {
      accounts.push((await retried(() => stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform, username: `bench_${platform}`, sandbox: true }))).socialAccountId);
    }
    // Creating the posts takes a while on this store: make them due once they are all in, and after the
    // store's statistics of the creation have settled. Past BENCH_PUBLISH_VIA_API_MAX posts (default
    // 1,000) they are written straight into the posts database (`seedDuePosts`) and the tables analyzed before
    // they are due. Either way the workspace's list index is built by the service's own backfill first.
    const viaApi = posts <= Number(process.env.BENCH_PUBLISH_VIA_API_MAX ?? 1_000);
    const due = new Date(Date.now() + 20_000 + posts * Number(process.env.BENCH_CREATE_MS_PER_POST ?? (viaApi ? 150 : 6)));
    /** Post i's due time: all at `due`, or spread evenly from `due` over `spreadMs`. */
    const dueOf = (i: number) => new Date(due.getTime() + Math.floor((i * spreadMs) / posts));
    if (viaApi) {
      for (let start = 0; start < posts; start += BULK) {
        const count = Math.min(BULK, posts - start);
        const res = await stack.api('/posts/bulk', {
          token: ws.apiKey,
          headers: { 'x-forwarded-for': `10.9.${start / BULK}.1` },
          body: {
            posts: Array.from({ length: count }, (_, i) => ({
              body: `bench ${start + i}`,
              scheduled_at: dueOf(start + i).toISOString(),
              post_accounts: accounts.map((id) => ({ social_account_id: id })),
            })),
          },
        });
        if (res.status !== 201) throw new Error(`bulk create failed: ${res.status} ${res.text}`);
      }
    } else {
      const targets = accounts.map((id, k) => ({ id, platform: PLATFORMS[k]!, username: `bench_${PLATFORMS[k]!}` }));
      await seedDuePosts({ postsDb, workspaceId: ws.workspaceId, accounts: targets, posts, dueOf });
    }
    // The workspace is new: its first list would answer from the store's own query and start the backfill of its
    // list index, which the polls for terminal posts at the end of the run would otherwise pay inside the measured
    // window (FerretDB reading the workspace's posts three times, and once more to build).
    await buildListIndex(postsDb, ws.workspaceId);
    if (!viaApi) await analyzeDatabases(dbs);
    const wait = due.getTime() - Date.now();
    if (wait < 11_000) process.stderr.write(`bench: warning: creation ran late, only ${wait} ms before due\n`);
    await sleep(Math.max(0, wait - 1_000));
    const cpuOf = () => cpuSnapshot(stack.processes.map((p) => ({ name: p.name, pid: p.child.pid! })));
    const before = await storeSnapshot(pids, dbs);
    const processesBefore = await Promise.all(storeProcs.map((p) => storeSnapshot([p.child.pid!], [])));
    await sleep(Math.max(0, due.getTime() - Date.now()));
    const cpuBefore = await cpuOf();
    process.stderr.write(`bench: ${posts} posts due ${spreadMs ? `from now over ${spreadMs / 1000} s` : 'now'} (${due.toISOString()})\n`);
    // Wait on the sandbox (no store work), then on the API for the posts' terminal status.
    // Counts only: a look at every sandbox post (30,000 in a large run) would load the machine the bench measures.
    const created = async () => {
      const counts = (await request(stack.sandboxUrl!, '/_sandbox/post_counts')).json.counts as Record<string, number>;
      return PLATFORMS.reduce((n, platform) => n + (counts[platform] ?? 0), 0);
    };
    while ((await created()) < posts * PLATFORMS.length) {
      if (Date.now() - due.getTime() > 600_000) throw new Error('not every target created after 10 minutes');
      await sleep(250);
    }
    let done = 0;
    for (let poll = 0; done < posts; poll++) {
      const res = await stack.api('/posts?status=posted,failed,partial&limit=1', { token: ws.apiKey, headers: { 'x-forwarded-for': `10.8.${Math.floor(poll / 250)}.${poll % 250}` } });
      done = res.json.meta.total_count;
      if (done < posts) await sleep(250);
      if (Date.now() - due.getTime() > 600_000) throw new Error(`only ${done}/${posts} terminal after 10 minutes`);
    }
    const seconds = (Date.now() - due.getTime()) / 1000;
    const cpu = cpuDelta(cpuBefore, await cpuOf());
    await settleStats();
    const store = storeDelta(before, await storeSnapshot(pids, dbs));
    const byProcess: Record<string, StoreSnapshot> = {};
    for (const [i, p] of storeProcs.entries()) {
      const d = storeDelta(processesBefore[i]!, await storeSnapshot([p.child.pid!], []));
      const sum = byProcess[p.name] ?? { commands: 0, byCommand: {} };
      for (const [k, v] of Object.entries(d.byCommand)) sum.byCommand[k] = (sum.byCommand[k] ?? 0) + v;
      byProcess[p.name] = { commands: sum.commands + d.commands, byCommand: sum.byCommand };
    }
    const lags: number[] = [];
    const perTarget = new Map<string, number>();
    for (const platform of PLATFORMS) {
      const remote = (await request(stack.sandboxUrl!, `/_sandbox/posts?platform=${platform}`)).json.posts as Array<{ text: string; createdAt: string }>;
      for (const p of remote) {
        if (!p.text.startsWith('bench ')) continue;
        lags.push(Date.parse(p.createdAt) - dueOf(Number(p.text.slice('bench '.length))).getTime());
        const key = `${platform}:${p.text}`;
        perTarget.set(key, (perTarget.get(key) ?? 0) + 1);
      }
    }
    const counts = [...perTarget.values()];
    const exactlyOnce = { once: counts.filter((c) => c === 1).length, duplicated: counts.filter((c) => c > 1).length, missing: posts * PLATFORMS.length - perTarget.size };
    const sorted = Float64Array.from(lags).sort();
    const terminal = await terminalLags(postsDb, ws.workspaceId);
    return {
      publishers,
      existing,
      posts,
      seconds,
      spreadMs,
      lagP50: percentile(sorted, 0.5),
      lagP99: percentile(sorted, 0.99),
      terminalP99: percentile(terminal, 0.99),
      terminalMax: terminal.at(-1) ?? NaN,
      targetsPerSecond: lags.length / seconds,
      store,
      byProcess,
      exactlyOnce,
      cpu,
    };
  } finally {
    await stack.stop();
  }
}

/**
 * BENCH_PUBLISH_POSTS posts due at once, or over BENCH_PUBLISH_SPREAD_S seconds (comma-separated: a run each); BENCH_PUBLISH_EXISTING store sizes (comma-separated existing posts);
 * BENCH_PUBLISHERS publisher counts; BENCH_METRICS_FETCH_OFFSETS analytics' schedule; BENCH_CREATE_MS_PER_POST the time allowed to create each post before all are due.
 */
export async function benchPublishing(posts = Number(process.env.BENCH_PUBLISH_POSTS ?? 300)): Promise<void> {
  const sizes = (process.env.BENCH_PUBLISH_EXISTING ?? '1000,200000').split(',').map(Number);
  const publisherCounts = (process.env.BENCH_PUBLISHERS ?? '1,2').split(',').map(Number);
  const spreads = (process.env.BENCH_PUBLISH_SPREAD_S ?? '0').split(',').map((s) => Number(s) * 1000);
  const targets = posts * PLATFORMS.length;
  console.log(
    `\npublishing: ${posts} posts due at once or over the time given, each to ${PLATFORMS.join(', ')} (sandbox answers after 50 ms); analytics fetches metrics at ${METRICS_FETCH_OFFSETS} after posting\n`,
  );
  console.log(
    '| posts stored before | publishers | due over | time from first due until all terminal | targets/s | lag due → platform call p50 | p99 | due → terminal p99 | max | exactly once (sandbox creates per target) | store commands / target | by process | PostgreSQL rows read / target | scans (posts, publisher, accounts, analytics dbs) | CPU ms / target (store and every process) | cores busy |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  // Each row as soon as its run ends (a long run at a large store size loses nothing if stopped).
  for (const existing of sizes) {
    for (const publishers of publisherCounts) {
      for (const spreadMs of spreads) {
        process.stderr.write(`bench: publishing ${posts} posts x ${PLATFORMS.length} targets with ${publishers} publisher(s), ${existing} posts already stored\n`);
        const r = await runOnce(posts, publishers, existing, spreadMs);
        const u = perUnit(r.store, targets);
        const byProcess = Object.entries(r.byProcess)
          .map(([name, d]) => `${name} ${perUnit(d, targets).commands} (${perUnit(d, targets).top})`)
          .join('; ');
        const once = `${r.exactlyOnce.once}/${targets} once, ${r.exactlyOnce.duplicated} twice+, ${r.exactlyOnce.missing} missing`;
        const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
        console.log(
          `| ${r.existing} | ${r.publishers} | ${r.spreadMs ? s(r.spreadMs) : 'at once'} | ${s(r.seconds * 1000)} | ${r.targetsPerSecond.toFixed(1)} | ${s(r.lagP50)} | ${s(r.lagP99)} | ${s(r.terminalP99)} | ${s(r.terminalMax)} | ${once} | ${u.commands} (${u.top}) | ${byProcess} | ${u.rows} | ${u.scans} | ${cpuPerUnit(r.cpu, targets)} | ${coresBusy(r.cpu, r.seconds)} |`,
        );
      }
    }
  }
}

/**
 * Per post of the workspace, milliseconds from its due time to its terminal write (the `updated_at` the
 * posts service stored with its terminal status), sorted: read once the run is measured.
 */
async function terminalLags(postsDb: string, workspaceId: number): Promise<Float64Array> {
  const connection = await mongoose.createConnection(TEST_INFRA.mongoUrl).asPromise();
  try {
    const docs = await connection
      .useDb(postsDb)
      .db!.collection<{ scheduled_at: Date; updated_at: Date }>('posts')
      .find({ workspace_id: workspaceId }, { projection: { scheduled_at: 1, updated_at: 1 } })
      .toArray();
    return Float64Array.from(docs.map((d) => d.updated_at.getTime() - d.scheduled_at.getTime())).sort();
  } finally {
    await connection.close();
  }
}

/** The posts service's own backfill of a workspace's list index (as its first list would start it), run here. */
async function buildListIndex(postsDb: string, workspaceId: number): Promise<void> {
  const { MongoPostsStore } = await import('@spa/posts');
  const connection = await mongoose.createConnection(TEST_INFRA.mongoUrl).asPromise();
  try {
    await new MongoPostsStore(connection.useDb(postsDb)).listIndex.backfill(workspaceId);
  } finally {
    await connection.close();
  }
}
