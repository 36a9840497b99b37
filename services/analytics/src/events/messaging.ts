import { MetricFetchJob, MetricSnapshotRecorded } from '@spa/contracts/events/v1/metrics';
import { countsToWire } from '@spa/contracts/metric-counts';
import { ANALYTICS_STREAM, ensureStream, jetstream, METRICS_STREAM, metricFetchSubject, metricSnapshotSubject, publishEvent, type NatsConnection } from '@spa/nats';
import { engagementRate } from '../domain/engagement.js';
import type { Messaging } from '../domain/ports.js';

/** Fetch jobs to the publisher and snapshot announcements, over JetStream, each named so a repeat is dropped. */
export async function jetStreamMessaging(nc: NatsConnection, namespace: string): Promise<Messaging> {
  await Promise.all([ensureStream(nc, METRICS_STREAM), ensureStream(nc, ANALYTICS_STREAM)]);
  const js = jetstream(nc);
  return {
    async sendFetch(track, fetch) {
      const job = MetricFetchJob.encode({
        workspaceId: track.workspaceId,
        postId: track.postId,
        postAccountId: track.postAccountId,
        socialAccountId: track.socialAccountId,
        platform: track.platform,
        platformPostId: track.platformPostId,
        n: fetch.n,
        dueAt: fetch.dueAt.toISOString(),
        tries: 0,
      }).finish();
      // Message ids carry the namespace: deployments (and test stacks) sharing a NATS server share the streams' de-duplication.
      await publishEvent(js, metricFetchSubject(namespace), job, `${namespace}:${fetch.id}`);
    },
    async announceSnapshot(track, s) {
      const event = MetricSnapshotRecorded.encode({
        workspaceId: track.workspaceId,
        postId: track.postId,
        postAccountId: track.postAccountId,
        ...countsToWire(s.metrics),
        engagementRate: engagementRate(s.metrics) ?? undefined,
        fetchedAt: s.fetchedAt.toISOString(),
      }).finish();
      await publishEvent(js, metricSnapshotSubject(namespace), event, `${namespace}:snapshot-${track.postAccountId}:${track.last?.n ?? 0}`);
    },
  };
}
