import { AckPolicy, DeliverPolicy, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { MetricSnapshotRecorded } from '@spa/contracts/events/v1/metrics';
import type { Logger } from '@spa/logger';
import { ANALYTICS_STREAM, ensureStream, jetstream, metricSnapshotSubject, type NatsConnection } from '@spa/nats';
import { recordMetric } from '../domain/record-metric.js';
import type { PostsStore } from '../domain/ports.js';

const PARALLEL = 16;

export function decodeSnapshot(data: Uint8Array) {
  const e = MetricSnapshotRecorded.decode(data);
  return {
    workspaceId: e.workspaceId,
    postId: e.postId,
    postAccountId: e.postAccountId,
    metric: {
      impressions: e.impressions,
      likes: e.likes,
      replies: e.replies,
      reposts: e.reposts,
      clicks: e.clicks,
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
export async function consumeMetricSnapshots(nc: NatsConnection, store: PostsStore, logger: Logger, namespace: string): Promise<{ stop(): Promise<void> }> {
  const name = `posts-metrics-${namespace}`;
  await ensureStream(nc, ANALYTICS_STREAM);
  const jsm = await jetstreamManager(nc);
  await jsm.consumers.add(ANALYTICS_STREAM.name, {
    durable_name: name,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: metricSnapshotSubject(namespace),
    ack_wait: 30_000_000_000,
    max_ack_pending: 1_000,
  });
  const messages: ConsumerMessages = await (await jetstream(nc).consumers.get(ANALYTICS_STREAM.name, name)).consume({ max_messages: 256 });
  const perPost = new Map<number, Promise<void>>();
  const running = new Set<Promise<void>>();
  const handle = async (msg: JsMsg): Promise<void> => {
    let snapshot;
    try {
      snapshot = decodeSnapshot(msg.data);
    } catch (err) {
      logger.error({ err, seq: msg.seq }, 'metric snapshot event: undecodable; dropped');
      msg.term();
      return;
    }
    const before = perPost.get(snapshot.postId) ?? Promise.resolve();
    const task = before.then(async () => {
      try {
        await recordMetric(store, snapshot);
        msg.ack();
      } catch (err) {
        logger.warn({ err, post: snapshot.postId }, 'metric snapshot not recorded; will be redelivered');
        msg.nak(1_000);
      }
    });
    perPost.set(snapshot.postId, task);
    await task;
    if (perPost.get(snapshot.postId) === task) perPost.delete(snapshot.postId);
  };
  const loop = (async () => {
    for await (const msg of messages) {
      const task = handle(msg).finally(() => running.delete(task));
      running.add(task);
      if (running.size >= PARALLEL) await Promise.race(running);
    }
    await Promise.all(running);
  })();
  return {
    stop: async () => {
      await messages.close();
      await loop;
    },
  };
}
