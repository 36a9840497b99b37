/**
 * Metric fetch jobs over real JetStream: the result the publisher sends the analytics service carries each count as
 * the platform's connector reported it, a count the platform does not report as unreported (null for the reader),
 * never a made-up 0; a fetch without counts (the platform is not supported) has every count unreported.
 */
import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { MetricFetchJob, MetricFetchResult } from '@spa/contracts/events/v1/metrics';
import { countsFromWire } from '@spa/contracts/metric-counts';
import { createLogger } from '@spa/logger';
import { connectNats, ensureStream, jetstream, METRICS_STREAM, metricFetchSubject, metricResultSubject, publishEvent, type NatsConnection } from '@spa/nats';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Connector } from '../connectors/types.js';
import type { PublisherDeps } from '../domain/ports.js';
import { consumeMetricJobs } from './consumer.js';

const namespace = `t_metrics_${randomBytes(3).toString('hex')}`;
let nc: NatsConnection;
beforeAll(async () => {
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'metric-jobs-test');
  await ensureStream(nc, METRICS_STREAM);
});
afterAll(async () => {
  const jsm = nc && (await jetstreamManager(nc));
  await jsm?.consumers.delete(METRICS_STREAM.name, `publisher-metrics-${namespace}`).catch(() => undefined);
  await jsm?.streams.purge(METRICS_STREAM.name, { filter: `metrics.${namespace}.>` }).catch(() => undefined);
  await nc?.drain();
});

it('sends each count as the platform reports it: null for one it does not report, 0 only for a reported 0', async () => {
  const deps = {
    clock: { now: () => new Date('2026-05-02T10:00:00.000Z') },
    accounts: {
      targets: async (_: number, ids: number[]) => ids.map((id) => ({ socialAccountId: id, platform: 'bluesky', username: 'u', credentials: {} })),
      markDisconnected: async () => undefined,
    },
    connectors: { bluesky: { platform: 'bluesky', fetchMetrics: async () => ({ impressions: null, likes: 0, replies: 2, reposts: 5, clicks: null }) } as unknown as Connector },
  } as unknown as PublisherDeps;
  const results = new Map<number, MetricFetchResult>();
  let done!: () => void;
  const received = new Promise<void>((resolve) => (done = resolve));
  const sub = nc.subscribe(metricResultSubject(namespace, '*'), {
    callback: (_, msg) => {
      const r = MetricFetchResult.decode(msg.data);
      results.set(r.job!.postAccountId, r);
      if (results.size === 2) done();
    },
  });
  const consumer = await consumeMetricJobs(nc, deps, createLogger('metric-jobs-test', 'silent'), { namespace, concurrency: 2, ackWaitMs: 30_000, maxDeliveries: 3, maxRetryWaitMs: 1_000 });
  const job = (postAccountId: number, platform: string) =>
    MetricFetchJob.encode({ workspaceId: 1, postId: 7, postAccountId, socialAccountId: 3, platform, platformPostId: `p${postAccountId}`, n: 1, dueAt: '2026-05-02T10:00:00.000Z' }).finish();
  await publishEvent(jetstream(nc), metricFetchSubject(namespace), job(70, 'bluesky'), `${namespace}:70:1`);
  // No connector for the platform: the fetch is given up as gone, without counts.
  await publishEvent(jetstream(nc), metricFetchSubject(namespace), job(71, 'discord'), `${namespace}:71:1`);
  await received;
  sub.unsubscribe();
  await consumer.stop();

  const ok = results.get(70)!;
  expect(ok.outcome).toBe('ok');
  expect(countsFromWire(ok)).toEqual({ impressions: null, likes: 0, replies: 2, reposts: 5, clicks: null });
  const gone = results.get(71)!;
  expect(gone.outcome).toBe('gone');
  expect(countsFromWire(gone)).toEqual({ impressions: null, likes: null, replies: null, reposts: null, clicks: null });
});
