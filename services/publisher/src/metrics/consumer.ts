import { metricsFetches } from '@spa/telemetry';
import { MetricFetchJob, MetricFetchResult } from '@spa/contracts/events/v1/metrics';
import { countsToWire, type MetricCounts } from '@spa/contracts/metric-counts';
import type { Logger } from '@spa/logger';
import { withRequestId } from '@spa/logger';
import {
  consumeDurable,
  jetstream,
  METRIC_RESULT_PARTITIONS,
  METRICS_STREAM,
  metricEndedSubject,
  metricFetchSubject,
  metricResultSubject,
  publishEvent,
  type JsMsg,
  type NatsConnection,
} from '@spa/nats';
import type { Platform } from '@spa/vocabulary';
import type { PublisherDeps } from '../domain/ports.js';
import { fetchTargetMetrics, type FetchOutcome } from './fetch-target-metrics.js';
import { RetryLane, type MetricRetryStore } from './retry-lane.js';

const NOTHING_KNOWN: MetricCounts = { impressions: null, likes: null, replies: null, reposts: null, clicks: null };

export interface MetricsConsumerOptions {
  namespace: string;
  concurrency: number;
  ackWaitMs: number;
  /** Tries of one fetch before it is given up (recorded as failed; the next scheduled fetch still runs). */
  maxDeliveries: number;
  /** Longest wait honoured from a rate-limit hint before the fetch is tried again. */
  maxRetryWaitMs: number;
  /** Retries sent again per second by this process, at most (the retry lane). */
  retriesPerSecond: number;
  /** How often the retry lane looks for due retries. */
  retryIntervalMs?: number;
}

/**
 * Consumes metric fetch jobs: fetches through the platform's connector and publishes the result for
 * the analytics service (counts on the workspace's partition, a gone, disconnected or failed fetch on
 * the `ended` subject), then acknowledges the job (only once the result is stored by JetStream, so a
 * crash loses nothing; a fetch redone after a crash yields the same snapshot id, stored once).
 * A fetch that fails transiently is recorded in the retry lane with its due time and acknowledged at
 * once (RetryLane): no job waits for a retry in the slots new fetches need. A platform's rate-limit hint
 * pauses every fetch of that account until it passes (those fetches wait in the lane too).
 */
export async function consumeMetricJobs(
  nc: NatsConnection,
  deps: Pick<PublisherDeps, 'accounts' | 'connectors' | 'clock'>,
  retries: MetricRetryStore,
  logger: Logger,
  opts: MetricsConsumerOptions,
): Promise<{ stop(): Promise<void> }> {
  const js = jetstream(nc);
  const pausedUntil = new Map<string, number>();
  const backoff = (tries: number) => Math.min(1_000 * 2 ** (tries - 1), opts.maxRetryWaitMs);
  const lane = new RetryLane(retries, (r) => publishEvent(js, metricFetchSubject(opts.namespace), r.job, `${opts.namespace}:${r.id}`), deps.clock, logger, {
    perSecond: opts.retriesPerSecond,
    intervalMs: opts.retryIntervalMs ?? 250,
  });

  const publishResult = async (job: MetricFetchJob, outcome: Exclude<FetchOutcome, { kind: 'retry' }>) => {
    // Without a fetch no count is known: every one is sent unreported.
    const m = outcome.kind === 'ok' ? outcome.metrics : NOTHING_KNOWN;
    const result = MetricFetchResult.encode({
      job,
      outcome: outcome.kind,
      ...countsToWire(m),
      fetchedAt: (outcome.kind === 'ok' ? outcome.fetchedAt : deps.clock.now()).toISOString(),
      error: outcome.kind === 'ok' ? undefined : outcome.error,
    }).finish();
    // Counts go to the workspace's ordered partition; a result that ends or skips the fetch goes apart, stored in parallel.
    const subject = outcome.kind === 'ok' ? metricResultSubject(opts.namespace, job.workspaceId % METRIC_RESULT_PARTITIONS) : metricEndedSubject(opts.namespace);
    await publishEvent(js, subject, result, `${opts.namespace}:result-${job.postAccountId}:${job.n}`);
  };

  /** Records the fetch in the retry lane, due at `dueAt`, after `tries` failed tries. */
  const retryLater = (job: MetricFetchJob, tries: number, dueAt: number, paused: boolean) =>
    lane.defer({
      // A pause is no try: named by its due time, so it never collides with the try it puts off.
      id: `${job.postAccountId}:${job.n}:try${tries}${paused ? `:at${dueAt}` : ''}`,
      workspaceId: job.workspaceId,
      platform: job.platform,
      dueAt: new Date(dueAt),
      job: MetricFetchJob.encode({ ...job, tries }).finish(),
    });

  const handle = async (message: JsMsg): Promise<void> => {
    const job = MetricFetchJob.decode(message.data);
    const key = `${job.platform}:${job.socialAccountId}`;
    const now = deps.clock.now().getTime();
    const paused = pausedUntil.get(key) ?? 0;
    if (paused > now) {
      await retryLater(job, job.tries, paused, true);
      return message.ack();
    }
    if (paused) pausedUntil.delete(key);
    const outcome = await fetchTargetMetrics(deps, {
      workspaceId: job.workspaceId,
      socialAccountId: job.socialAccountId,
      platform: job.platform as Platform,
      platformPostId: job.platformPostId,
    });
    metricsFetches.inc({ platform: job.platform, outcome: outcome.kind === 'retry' ? (outcome.afterMs !== undefined ? 'rate_limited' : 'retry') : outcome.kind });
    if (outcome.kind !== 'retry') {
      await publishResult(job, outcome);
      return message.ack();
    }
    const tries = job.tries + 1;
    if (tries >= opts.maxDeliveries) {
      logger.warn({ target: job.postAccountId, n: job.n, error: outcome.error }, 'metric fetch given up after retries');
      await publishResult(job, { kind: 'failed', error: `gave up after ${tries} tries: ${outcome.error}` });
      return message.ack();
    }
    const wait = Math.min(outcome.afterMs ?? backoff(tries), opts.maxRetryWaitMs);
    const dueAt = deps.clock.now().getTime() + wait;
    if (outcome.afterMs !== undefined) pausedUntil.set(key, dueAt);
    logger.info({ target: job.postAccountId, n: job.n, wait, error: outcome.error }, 'metric fetch will be retried');
    await retryLater(job, tries, dueAt, false);
    message.ack();
  };

  const consumer = await consumeDurable(
    nc,
    {
      stream: METRICS_STREAM,
      durable: `publisher-metrics-${opts.namespace}`,
      filterSubject: metricFetchSubject(opts.namespace),
      startAt: 'all',
      ackWaitMs: opts.ackWaitMs,
      maxAckPending: Math.max(opts.concurrency * 4, 64),
      parallel: opts.concurrency,
    },
    (message) => withRequestId(message.headers?.get('x-request-id') || `metrics-${message.seq}`, () => handle(message)),
    (err, message) => logger.warn({ err, seq: message.seq }, 'metric fetch job failed; it will be delivered again'),
    2_000,
  );
  lane.start();
  return {
    stop: async () => {
      await lane.stop();
      await consumer.stop();
    },
  };
}
