/**
 * Analytics benchmark. (1) A fetch wave: 10,000 posted targets' metric jobs sent at once to the real
 * publisher process, which fetches each through the X connector from the sandbox answering in 50 ms:
 * fetches per second. (2) Store operations per snapshot: results applied by the analytics use case on
 * the real store, every store call counted. (3) GET /analytics/timeseries over 90 days (and its 90-day
 * comparison) for a workspace with 100,000 snapshots, answered by the use case from the store: p50/p99.
 * Prints figures; asserts nothing.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { MetricFetchJob } from '@spa/contracts/events/v1/metrics';
import { addPostGrowth, attributeGrowth, MongoAnalyticsStore, recordResult, timeseries, type AnalyticsDeps, type AnalyticsStore, type MonthBucket } from '@spa/analytics';
import { connectMongo } from '@spa/mongo';
import { connectNats, jetstream, METRICS_STREAM, metricFetchSubject } from '@spa/nats';
import { createWorkspace, dropDatabases, request, startStack, TEST_INFRA, uniqueName } from '@spa/testing';
import { percentile } from './stats.js';

const progress = (message: string): void => void process.stderr.write(`bench: ${message}\n`);
const TARGETS = Number(process.env.BENCH_ANALYTICS_TARGETS ?? 10_000);
const SNAPSHOTS = Number(process.env.BENCH_ANALYTICS_SNAPSHOTS ?? 100_000);

async function fetchWave(): Promise<{ seconds: number; perSecond: number }> {
  const stack = await startStack({ publishing: true });
  const nc = await connectNats(TEST_INFRA.natsUrl, 'bench-analytics');
  try {
    const ws = await createWorkspace(stack);
    const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'twitter', username: 'bench_metrics', sandbox: true });
    progress(`creating ${TARGETS} posts in the sandbox`);
    const ids: string[] = [];
    for (let start = 0; start < TARGETS; start += 100) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(100, TARGETS - start) }, (_, i) =>
          request(stack.sandboxUrl!, '/twitter/2/tweets', { headers: { authorization: 'Bearer sandbox-bench_metrics' }, body: { text: `bench ${start + i}` } }),
        ),
      );
      ids.push(...batch.map((r) => String(r.json.data.id)));
    }
    await request(stack.sandboxUrl!, '/_sandbox/latency', { body: { ms: 50 } });
    const js = jetstream(nc);
    progress(`sending ${TARGETS} metric jobs at once`);
    const started = performance.now();
    for (let start = 0; start < ids.length; start += 500) {
      await Promise.all(
        ids.slice(start, start + 500).map((platformPostId, i) => {
          const n = start + i + 1;
          const job = MetricFetchJob.encode({
            workspaceId: ws.workspaceId,
            postId: n,
            postAccountId: n,
            socialAccountId,
            platform: 'twitter',
            platformPostId,
            n: 1,
            dueAt: new Date().toISOString(),
            tries: 0,
          }).finish();
          return js.publish(metricFetchSubject(stack.jobsNamespace), job, { msgID: `bench-${stack.jobsNamespace}-${n}` });
        }),
      );
    }
    const jsm = await jetstreamManager(nc);
    for (;;) {
      const info = await jsm.consumers.info(METRICS_STREAM.name, `publisher-metrics-${stack.jobsNamespace}`);
      if (info.num_pending === 0 && info.num_ack_pending === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const seconds = (performance.now() - started) / 1000;
    return { seconds, perSecond: TARGETS / seconds };
  } finally {
    await nc.drain();
    await stack.stop();
  }
}

/** Counts every call made to the store. */
function counting(store: AnalyticsStore): { store: AnalyticsStore; calls: () => number } {
  let calls = 0;
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => ((calls += 1), (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
  return { store: proxy, calls: () => calls };
}

function depsOver(store: AnalyticsStore, accounts: number): AnalyticsDeps {
  return {
    store,
    accounts: { timezone: async () => 'Europe/Berlin', socialAccounts: async () => Array.from({ length: accounts }, (_, i) => ({ id: i + 1, platform: 'twitter' as const })) },
    posts: { postedTargets: async () => [] },
    messaging: { sendFetch: async () => undefined, announceSnapshot: async () => undefined },
    clock: { now: () => new Date('2026-11-23T12:00:00Z') },
  };
}

async function storeOps(): Promise<{ snapshots: number; opsPerSnapshot: number; msPerSnapshot: number }> {
  const db = uniqueName('bench_analytics_ops');
  const mongo = await connectMongo(TEST_INFRA.mongoUrl, db);
  try {
    const inner = new MongoAnalyticsStore(mongo);
    const { store, calls } = counting(inner);
    const deps = depsOver(store, 10);
    const targets = 100;
    const postedAt = new Date('2026-11-20T09:00:00Z');
    for (let t = 1; t <= targets; t += 1)
      await inner.insertTrack({ postAccountId: t, workspaceId: 1, postId: t, socialAccountId: (t % 10) + 1, platform: 'twitter', platformPostId: String(t), postedAt, status: 'active' });
    const before = calls();
    const started = performance.now();
    let seq = 0;
    for (let n = 1; n <= 3; n += 1) {
      for (let t = 1; t <= targets; t += 1) {
        const metrics = { impressions: 100 * n + t, likes: 5 * n, replies: n, reposts: n, clicks: 2 * n };
        await recordResult(deps, { postAccountId: t, n, outcome: 'ok', metrics, fetchedAt: new Date(postedAt.getTime() + n * 3_600_000) }, (seq += 1));
      }
    }
    const snapshots = targets * 3;
    return { snapshots, opsPerSnapshot: (calls() - before) / snapshots, msPerSnapshot: (performance.now() - started) / snapshots };
  } finally {
    await mongo.close();
    await dropDatabases([db]);
  }
}

async function timeseriesLatency(): Promise<{ p50: number; p99: number; requests: number; buckets: number }> {
  const db = uniqueName('bench_analytics_series');
  const mongo = await connectMongo(TEST_INFRA.mongoUrl, db);
  try {
    const store = new MongoAnalyticsStore(mongo);
    const accounts = 20;
    const deps = depsOver(store, accounts);
    // 100,000 snapshots: 12,500 targets over the last 180 days, 8 fetches each (1 h … 28 d), their
    // growth attributed to days exactly as the ingest does, kept in the same month buckets.
    progress(`attributing ${SNAPSHOTS} snapshots into month buckets`);
    const end = new Date('2026-11-23T00:00:00Z').getTime();
    const offsets = [1, 6, 24, 72, 168, 336, 504, 672].map((h) => h * 3_600_000);
    const buckets = new Map<string, { account: number } & Pick<MonthBucket, 'month' | 'days' | 'reporters'>>();
    const targets = Math.ceil(SNAPSHOTS / offsets.length);
    for (let t = 0; t < targets; t += 1) {
      const account = (t % accounts) + 1;
      const postedAt = end - ((t * 7919) % (180 * 86_400_000));
      let prev = { at: postedAt, m: { impressions: 0, likes: 0, replies: 0, reposts: 0, clicks: 0 } };
      for (const [i, offset] of offsets.entries()) {
        const at = postedAt + offset;
        const m = { impressions: 100 * (i + 1), likes: 4 * (i + 1), replies: i + 1, reposts: i, clicks: 2 * i };
        const growth = {
          impressions: m.impressions - prev.m.impressions,
          likes: m.likes - prev.m.likes,
          replies: m.replies - prev.m.replies,
          reposts: m.reposts - prev.m.reposts,
          clicks: m.clicks - prev.m.clicks,
        };
        const engagements = growth.likes + growth.replies + growth.reposts + growth.clicks;
        const perDay = attributeGrowth({ ...growth, ratedImpressions: growth.impressions, ratedEngagements: engagements }, new Date(prev.at), new Date(at), 'Europe/Berlin');
        for (const month of new Set([...perDay.keys()].map((day) => day.slice(0, 7)))) {
          const key = `${account}:${month}`;
          const b = buckets.get(key) ?? { account, month, days: {}, reporters: {} };
          buckets.set(key, { ...b, ...addPostGrowth(b, t + 1, perDay) });
        }
        prev = { at, m };
      }
    }
    for (const b of buckets.values()) await store.saveMonthBucket({ workspaceId: 1, socialAccountId: b.account, platform: 'twitter', month: b.month, days: b.days, reporters: b.reporters }, 0);
    await store.models.MonthBucket.createIndexes();
    progress(`timeseries over 90 days (${buckets.size} month buckets)`);
    const latencies: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const started = performance.now();
      await timeseries(deps, { workspaceId: 1, startDate: '2026-08-26', endDate: '2026-11-23' });
      latencies.push(performance.now() - started);
    }
    const sorted = Float64Array.from(latencies).sort();
    return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), requests: latencies.length, buckets: buckets.size };
  } finally {
    await mongo.close();
    await dropDatabases([db]);
  }
}

export async function benchAnalytics(): Promise<void> {
  progress('analytics: store operations per snapshot');
  const ops = await storeOps();
  progress('analytics: timeseries latency');
  const series = await timeseriesLatency();
  progress(`analytics: fetch wave of ${TARGETS} targets (sandbox answering in 50 ms)`);
  const wave = TARGETS > 0 ? await fetchWave() : { seconds: Number.NaN, perSecond: Number.NaN };
  process.stdout.write(
    [
      '',
      'Analytics',
      `  fetch wave: ${TARGETS} targets in ${wave.seconds.toFixed(1)} s = ${wave.perSecond.toFixed(0)} fetches/s (one publisher, METRICS_CONCURRENCY default 16, sandbox 50 ms)`,
      `  store operations per snapshot: ${ops.opsPerSnapshot.toFixed(2)} (${ops.snapshots} snapshots applied, ${ops.msPerSnapshot.toFixed(1)} ms each)`,
      `  timeseries 90 days + comparison, ${SNAPSHOTS} snapshots (${series.buckets} month buckets, 20 accounts): p50 ${series.p50.toFixed(1)} ms, p99 ${series.p99.toFixed(1)} ms over ${series.requests} requests (use case + store, accounts answered in process)`,
      '',
    ].join('\n'),
  );
}
