import { MetricSnapshotRecorded } from '@spa/contracts/events/v1/metrics';
import { countsFromWire } from '@spa/contracts/metric-counts';
import type { Logger } from '@spa/logger';
import { ANALYTICS_STREAM, consumeDurable, metricSnapshotSubject, type NatsConnection } from '@spa/nats';
import { recordMetric } from '../domain/record-metric.js';
import type { PostsStore } from '../domain/ports.js';

export function decodeSnapshot(data: Uint8Array) {
  const e = MetricSnapshotRecorded.decode(data);
  return {
    workspaceId: e.workspaceId,
    postId: e.postId,
    postAccountId: e.postAccountId,
    metric: {
      ...countsFromWire(e),
      engagementRate: e.engagementRate ?? null,
      fetchedAt: new Date(e.fetchedAt),
    },
  };
}

/**
 * Durable consumer of analytics.<namespace>.snapshot: keeps each target's latest snapshot as its
 * post_metric, so post responses carry it without asking analytics. Snapshots of one post are handled
 * one at a time in this process; each write is monotonic by fetched_at (repeats change nothing).
 */
export function consumeMetricSnapshots(nc: NatsConnection, store: PostsStore, logger: Logger, namespace: string): Promise<{ stop(): Promise<void> }> {
  const perPost = new Map<number, Promise<void>>();
  return consumeDurable(
    nc,
    { stream: ANALYTICS_STREAM, durable: `posts-metrics-${namespace}`, filterSubject: metricSnapshotSubject(namespace), startAt: 'all', ackWaitMs: 30_000, parallel: 16, prefetch: 256 },
    async (msg) => {
      let snapshot;
      try {
        snapshot = decodeSnapshot(msg.data);
      } catch (err) {
        logger.error({ err, seq: msg.seq }, 'metric snapshot event: undecodable; dropped');
        msg.term();
        return;
      }
      const { postId } = snapshot;
      const task = (perPost.get(postId) ?? Promise.resolve()).then(async () => {
        await recordMetric(store, snapshot);
        msg.ack();
      });
      // The next snapshot of this post waits for this one, whether it was stored or not.
      const settled = task.catch(() => undefined);
      perPost.set(postId, settled);
      await task.finally(() => {
        if (perPost.get(postId) === settled) perPost.delete(postId);
      });
    },
    (err, msg) => logger.warn({ err, seq: msg.seq }, 'metric snapshot not recorded; will be redelivered'),
  );
}
