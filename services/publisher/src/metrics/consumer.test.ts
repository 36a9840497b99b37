/**
 * Metric fetch jobs over real JetStream and the real store: the result the publisher sends the analytics service
 * carries each count as the platform's connector reported it, a count the platform does not report as unreported
 * (null for the reader), never a made-up 0; a fetch without counts (the platform is not supported) has every count
 * unreported. Fetches that fail transiently wait in the retry lane, never in the slots new fetches need.
 */
import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { MetricFetchJob, MetricFetchResult } from '@spa/contracts/events/v1/metrics';
import { countsFromWire } from '@spa/contracts/metric-counts';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { connectNats, ensureStream, jetstream, METRICS_STREAM, metricEndedSubject, metricFetchSubject, metricResultSubject, publishEvent, type NatsConnection } from '@spa/nats';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConnectorError, type Connector } from '../connectors/types.js';
import { MongoMetricRetryStore } from '../data/metric-retry-store.js';
import type { PublisherDeps } from '../domain/ports.js';
import { consumeMetricJobs } from './consumer.js';

const run = randomBytes(3).toString('hex');
const namespaces: string[] = [];
let nc: NatsConnection;
let connection: Connection;
beforeAll(async () => {
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'metric-jobs-test');
  await ensureStream(nc, METRICS_STREAM);
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_metric_jobs_${run}`);
});
afterAll(async () => {
  const jsm = nc && (await jetstreamManager(nc));
  for (const namespace of namespaces) {
    await jsm?.consumers.delete(METRICS_STREAM.name, `publisher-metrics-${namespace}`).catch(() => undefined);
    await jsm?.streams.purge(METRICS_STREAM.name, { filter: `metrics.${namespace}.>` }).catch(() => undefined);
  }
  await nc?.drain();
  for (const namespace of namespaces) await connection?.useDb(namespace).dropDatabase();
  await connection?.close();
});

/** A namespace of its own per test: its jobs, results, consumer and retry lane (a database, as a deployment has). */
const newNamespace = async () => {
  const namespace = `t_metrics_${run}_${namespaces.length}`;
  namespaces.push(namespace);
  const db = connection.useDb(namespace);
  const retries = new MongoMetricRetryStore(db);
  await syncIndexes(db);
  return { namespace, retries };
};
const silent = createLogger('metric-jobs-test', 'silent');
const options = { concurrency: 2, ackWaitMs: 30_000, maxDeliveries: 3, maxRetryWaitMs: 1_000, retriesPerSecond: 20 };
const job = (postAccountId: number, platform: string, workspaceId = 1) =>
  MetricFetchJob.encode({ workspaceId, postId: 7, postAccountId, socialAccountId: 3, platform, platformPostId: `p${postAccountId}`, n: 1, dueAt: '2026-05-02T10:00:00.000Z', tries: 0 }).finish();

/** Collects the results published in a namespace (on a workspace's partition or the ended subject), by target. */
function results(namespace: string, onResult: (size: number) => void = () => undefined) {
  const got = new Map<number, MetricFetchResult & { at: number; subject: string }>();
  const subs = [metricResultSubject(namespace, '*'), metricEndedSubject(namespace)].map((subject) =>
    nc.subscribe(subject, {
      callback: (_, msg) => {
        const r = MetricFetchResult.decode(msg.data);
        got.set(r.job!.postAccountId, { ...r, at: Date.now(), subject: msg.subject });
        onResult(got.size);
      },
    }),
  );
  return { got, stop: () => subs.forEach((s) => s.unsubscribe()) };
}

it('sends each count as the platform reports it: null for one it does not report, 0 only for a reported 0', async () => {
  const { namespace, retries } = await newNamespace();
  const deps = {
    clock: { now: () => new Date('2026-05-02T10:00:00.000Z') },
    accounts: {
      targets: async (_: number, ids: number[]) => ids.map((id) => ({ socialAccountId: id, platform: 'bluesky', username: 'u', credentials: {} })),
      markDisconnected: async () => undefined,
    },
    connectors: { bluesky: { platform: 'bluesky', fetchMetrics: async () => ({ impressions: null, likes: 0, replies: 2, reposts: 5, clicks: null }) } as unknown as Connector },
  } as unknown as PublisherDeps;
  let done!: () => void;
  const received = new Promise<void>((resolve) => (done = resolve));
  const seen = results(namespace, (size) => size === 2 && done());
  const consumer = await consumeMetricJobs(nc, deps, retries, silent, { namespace, ...options });
  await publishEvent(jetstream(nc), metricFetchSubject(namespace), job(70, 'bluesky'), `${namespace}:70:1`);
  // No connector for the platform: the fetch is given up as gone, without counts.
  await publishEvent(jetstream(nc), metricFetchSubject(namespace), job(71, 'discord'), `${namespace}:71:1`);
  await received;
  seen.stop();
  await consumer.stop();

  const ok = seen.got.get(70)!;
  expect(ok.outcome).toBe('ok');
  // Counts go to the workspace's ordered partition; a result that ends the fetches, to the ended subject.
  expect(ok.subject).toBe(metricResultSubject(namespace, 1));
  expect(countsFromWire(ok)).toEqual({ impressions: null, likes: 0, replies: 2, reposts: 5, clicks: null });
  const gone = seen.got.get(71)!;
  expect(gone.outcome).toBe('gone');
  expect(gone.subject).toBe(metricEndedSubject(namespace));
  expect(countsFromWire(gone)).toEqual({ impressions: null, likes: null, replies: null, reposts: null, clicks: null });
});

it('a backlog of fetches that fail transiently never holds the slots a new fetch needs: it is served at once', async () => {
  const { namespace, retries } = await newNamespace();
  // Every Mastodon read fails transiently (the instance is down); X answers.
  const mastodonReads: number[] = [];
  const deps = {
    clock: { now: () => new Date() },
    accounts: {
      targets: async (_: number, ids: number[]) => ids.map((id) => ({ socialAccountId: id, platform: 'twitter', username: 'u', credentials: {} })),
      markDisconnected: async () => undefined,
    },
    connectors: {
      mastodon: {
        platform: 'mastodon',
        fetchMetrics: async (_: unknown, id: string) => {
          mastodonReads.push(Number(id.slice(1)));
          throw new ConnectorError('transient', 'GET /api/v1/statuses answered 503');
        },
      } as unknown as Connector,
      twitter: { platform: 'twitter', fetchMetrics: async () => ({ impressions: 10, likes: 1, replies: 0, reposts: 0, clicks: 0 }) } as unknown as Connector,
    },
  } as unknown as PublisherDeps;
  const js = jetstream(nc);
  // More failing fetches than the consumer holds unacknowledged (max_ack_pending 64 at this concurrency), in other workspaces.
  for (let i = 0; i < 150; i++) await publishEvent(js, metricFetchSubject(namespace), job(1_000 + i, 'mastodon', 2 + (i % 5)), `${namespace}:${1_000 + i}:1`);
  const seen = results(namespace);
  const consumer = await consumeMetricJobs(nc, deps, retries, silent, { namespace, ...options, maxDeliveries: 8, maxRetryWaitMs: 30_000, retriesPerSecond: 5 });
  try {
    // Every failing fetch has been tried once: the backlog is in the retry lane.
    await expect.poll(() => new Set(mastodonReads).size, { timeout: 30_000, interval: 100 }).toBe(150);
    const sentAt = Date.now();
    await publishEvent(js, metricFetchSubject(namespace), job(1, 'twitter'), `${namespace}:1:1`);
    await expect.poll(() => seen.got.get(1)?.outcome, { timeout: 30_000, interval: 50 }).toBe('ok');
    // Served as soon as it arrived, not after the backlog's retries (each waits seconds to be tried again).
    expect(seen.got.get(1)!.at - sentAt).toBeLessThan(3_000);
    // Nothing of the backlog was given up or answered: each waits its next try in the lane.
    expect([...seen.got.keys()]).toEqual([1]);
    // Retries are sent again at the lane's rate, not all at once.
    const before = mastodonReads.length;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(mastodonReads.length - before).toBeLessThanOrEqual(5 * 3 + 5);
  } finally {
    seen.stop();
    await consumer.stop();
  }
});

it('a fetch that fails transiently is tried again from the lane, counted, and given up as failed after the last try', async () => {
  const { namespace, retries } = await newNamespace();
  let reads = 0;
  const deps = {
    clock: { now: () => new Date() },
    accounts: {
      targets: async (_: number, ids: number[]) => ids.map((id) => ({ socialAccountId: id, platform: 'mastodon', username: 'u', credentials: {} })),
      markDisconnected: async () => undefined,
    },
    connectors: {
      mastodon: {
        platform: 'mastodon',
        fetchMetrics: async () => {
          reads++;
          throw new ConnectorError('transient', 'GET /api/v1/statuses answered 503');
        },
      } as unknown as Connector,
    },
  } as unknown as PublisherDeps;
  const seen = results(namespace);
  const consumer = await consumeMetricJobs(nc, deps, retries, silent, { namespace, ...options, maxDeliveries: 3, maxRetryWaitMs: 1_000, retriesPerSecond: 50, retryIntervalMs: 50 });
  try {
    await publishEvent(jetstream(nc), metricFetchSubject(namespace), job(5, 'mastodon'), `${namespace}:5:1`);
    await expect.poll(() => seen.got.get(5)?.outcome, { timeout: 30_000, interval: 50 }).toBe('failed');
    expect(reads).toBe(3);
    expect(seen.got.get(5)!.error).toMatch(/^gave up after 3 tries: .*503/);
    // The lane kept nothing of it.
    expect((await retries.all()).filter((r) => r.id.startsWith('5:1:'))).toEqual([]);
  } finally {
    seen.stop();
    await consumer.stop();
  }
});
