import { AckPolicy, jetstreamManager, type Consumer } from '@nats-io/jetstream';
import { PublishJob } from '@spa/contracts/events/v1/jobs';
import type { Logger } from '@spa/logger';
import { ensureStream, jetstream, publishJobSubject, PUBLISH_JOBS_STREAM, traceCarrierOfHeaders, type NatsConnection } from '@spa/nats';
import { inSpan, SpanKind } from '@spa/telemetry';
import { withRequestId } from '@spa/logger';
import { publishJob } from '../domain/publish-post.js';
import type { PublisherDeps } from '../domain/ports.js';

/**
 * Consumes publish jobs from the work queue with up to `concurrency` jobs at once. A job is
 * acknowledged when its post is done; one that must wait (a target held by another publisher, a
 * platform that cannot be asked now) is redelivered after a delay; one whose handling threw is too.
 */
export async function consumePublishJobs(
  nc: NatsConnection,
  deps: PublisherDeps,
  logger: Logger,
  { namespace, concurrency, ackWaitMs }: { namespace: string; concurrency: number; ackWaitMs: number },
): Promise<{ stop(): Promise<void> }> {
  const name = `publisher-${namespace}`;
  await ensureStream(nc, PUBLISH_JOBS_STREAM);
  const jsm = await jetstreamManager(nc);
  await jsm.consumers.add(PUBLISH_JOBS_STREAM.name, {
    durable_name: name,
    filter_subject: publishJobSubject(namespace),
    ack_policy: AckPolicy.Explicit,
    ack_wait: ackWaitMs * 1_000_000,
    max_ack_pending: 1_000,
  });
  const consumer: Consumer = await jetstream(nc).consumers.get(PUBLISH_JOBS_STREAM.name, name);
  const messages = await consumer.consume({ max_messages: concurrency });
  const inFlight = new Set<Promise<void>>();
  const loop = (async () => {
    for await (const message of messages) {
      while (inFlight.size >= concurrency) await Promise.race(inFlight);
      const job = PublishJob.decode(message.data);
      // While a job runs, tell JetStream it is in progress, so a long job is not delivered twice;
      // a publisher that dies stops saying so and the job goes to another after ackWaitMs.
      const heartbeat = setInterval(() => message.working(), Math.max(ackWaitMs / 3, 500));
      const task = withRequestId(message.headers?.get('x-request-id') || `job-${job.dispatchId}`, () =>
        inSpan('publish job', { kind: SpanKind.CONSUMER, parent: traceCarrierOfHeaders(message.headers), attributes: { 'spa.post_id': job.postId } }, () => publishJob(deps, job)),
      )
        .finally(() => clearInterval(heartbeat))
        .then((done) => (done ? message.ack() : message.nak(2_000)))
        .catch((err: unknown) => {
          logger.warn({ err, post: job.postId }, 'publish job failed; it will be delivered again');
          message.nak(2_000);
        })
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
    }
  })();
  return {
    stop: async () => {
      await messages.close();
      await loop;
      await Promise.all(inFlight);
    },
  };
}
