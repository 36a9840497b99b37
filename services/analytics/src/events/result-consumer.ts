import { MetricFetchResult } from '@spa/contracts/events/v1/metrics';
import { countsFromWire } from '@spa/contracts/metric-counts';
import type { Logger } from '@spa/logger';
import { consumeDurable, METRIC_RESULT_PARTITIONS, METRICS_STREAM, metricEndedSubject, metricResultSubject, type JsMsg, type NatsConnection } from '@spa/nats';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AnalyticsDeps } from '../domain/ports.js';
import { recordEnded, recordResult, type FetchResult } from '../domain/record-result.js';

const OUTCOMES = new Set(['ok', 'disconnected', 'gone', 'failed']);
/** Results without counts stored at once (each one write of its own target's track; writes made together share a command). */
const ENDED_AT_ONCE = 64;

export function decodeResult(data: Uint8Array): FetchResult | null {
  const r = MetricFetchResult.decode(data);
  if (!r.job || !OUTCOMES.has(r.outcome)) return null;
  return {
    postAccountId: r.job.postAccountId,
    n: r.job.n,
    outcome: r.outcome as FetchResult['outcome'],
    metrics: countsFromWire(r),
    fetchedAt: new Date(r.fetchedAt),
    error: r.error,
  };
}

/**
 * Stores fetch results. One durable consumer per partition (results are partitioned by workspace),
 * each with one message in flight across every replica (max_ack_pending 1): a workspace's results are
 * applied one at a time and in stream order, which the buckets' read-modify-writes rely on. A result
 * that fails to store is retried here (never negatively acknowledged, which would let a later one
 * overtake it); if this process dies, JetStream delivers it again after the ack wait.
 *
 * Results without counts (gone, disconnected, failed: the `ended` subject) touch only their own target's
 * track: one consumer stores them ENDED_AT_ONCE at a time, in any order, so a burst of them (thousands of
 * posts that vanished from a platform) never waits in, nor delays, a workspace's partition.
 */
export async function consumeResults(nc: NatsConnection, deps: AnalyticsDeps, logger: Logger, namespace: string, ackWaitMs: number) {
  const stops: Array<() => Promise<void>> = [];
  const ended = await consumeDurable(
    nc,
    {
      stream: METRICS_STREAM,
      durable: `analytics-ended-${namespace}`,
      filterSubject: metricEndedSubject(namespace),
      startAt: 'all',
      ackWaitMs,
      maxAckPending: ENDED_AT_ONCE * 4,
      parallel: ENDED_AT_ONCE,
    },
    async (msg) => {
      const result = decodeOrDrop(msg);
      if (!result) return;
      await recordEnded(deps, result);
      msg.ack();
    },
    (err, msg) => logger.warn({ err, seq: msg.seq }, 'metric result (ended): not stored; will be redelivered'),
  );
  stops.push(() => ended.stop());
  for (let p = 0; p < METRIC_RESULT_PARTITIONS; p += 1) {
    let stopping = false;
    const consumer = await consumeDurable(
      nc,
      { stream: METRICS_STREAM, durable: `analytics-results-${namespace}-${p}`, filterSubject: metricResultSubject(namespace, p), startAt: 'all', ackWaitMs, maxAckPending: 1, parallel: 1 },
      (msg) => handleOne(msg, () => stopping),
      (err, msg) => logger.warn({ err, seq: msg.seq }, 'metric result: not handled; will be redelivered'),
    );
    stops.push(async () => {
      stopping = true;
      await consumer.stop();
    });
  }

  /** The result, or null once an undecodable message is dropped. */
  function decodeOrDrop(msg: JsMsg): FetchResult | null {
    let result: FetchResult | null;
    try {
      result = decodeResult(msg.data);
    } catch {
      result = null;
    }
    if (!result) {
      logger.error({ seq: msg.seq }, 'metric result: undecodable; dropped');
      msg.term();
    }
    return result;
  }

  async function handleOne(msg: JsMsg, stopping: () => boolean): Promise<void> {
    const result = decodeOrDrop(msg);
    if (!result) return;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await recordResult(deps, result, msg.seq);
        msg.ack();
        return;
      } catch (err) {
        if (stopping()) return; // left unacknowledged: delivered again after the ack wait
        logger.warn({ err, target: result.postAccountId, n: result.n, attempt }, 'metric result not stored yet; retrying');
        msg.working();
        await sleep(Math.min(250 * 2 ** attempt, 10_000));
      }
    }
  }

  return { stop: async () => void (await Promise.all(stops.map((s) => s()))) };
}
