import { PublishJob } from '@spa/contracts/events/v1/jobs';
import type { Logger } from '@spa/logger';
import { withRequestId } from '@spa/logger';
import { consumeDurable, keepingInProgress, publishJobSubject, PUBLISH_JOBS_STREAM, traceCarrierOfHeaders, type NatsConnection } from '@spa/nats';
import { inSpan, SpanKind } from '@spa/telemetry';
import { publishJob } from '../domain/publish-post.js';
import type { PublisherDeps } from '../domain/ports.js';
import { postToPublish } from '../grpc/post-to-publish.js';

/** A job that must wait, or whose handling threw, is delivered again after this delay. */
const RETRY_DELAY_MS = 2_000;

/**
 * Consumes publish jobs from the work queue with up to `concurrency` jobs at once (a job's post, as the
 * posts service sent it, has its media read from `mediaBaseUrl`). A job is
 * acknowledged when its post is done; one that must wait (a target held by another publisher, a
 * platform that cannot be asked now) is redelivered after a delay; one whose handling threw is too.
 * While a job runs, JetStream is told it is in progress, so a long job is not delivered twice; a
 * publisher that dies stops saying so and the job goes to another after ackWaitMs.
 */
export function consumePublishJobs(
  nc: NatsConnection,
  deps: PublisherDeps,
  logger: Logger,
  { namespace, concurrency, ackWaitMs, mediaBaseUrl }: { namespace: string; concurrency: number; ackWaitMs: number; mediaBaseUrl: string },
): Promise<{ stop(): Promise<void> }> {
  return consumeDurable(
    nc,
    { stream: PUBLISH_JOBS_STREAM, durable: `publisher-${namespace}`, filterSubject: publishJobSubject(namespace), startAt: 'all', ackWaitMs, parallel: concurrency },
    async (message) => {
      const decoded = PublishJob.decode(message.data);
      // The post a job carries is the post as it began publishing. A job delivered again may have been carried
      // out already (its post ended since): then the post is read, and an ended post is left alone.
      const carried = decoded.post && !message.info.redelivered ? postToPublish(decoded.workspaceId, decoded.post, mediaBaseUrl) : undefined;
      const job = { ...decoded, post: carried };
      const done = await keepingInProgress(message, ackWaitMs, () =>
        withRequestId(message.headers?.get('x-request-id') || `job-${job.dispatchId}`, () =>
          inSpan('publish job', { kind: SpanKind.CONSUMER, parent: traceCarrierOfHeaders(message.headers), attributes: { 'spa.post_id': job.postId } }, () => publishJob(deps, job)),
        ),
      );
      if (done) message.ack();
      else message.nak(RETRY_DELAY_MS);
    },
    (err, message) => logger.warn({ err, seq: message.seq }, 'publish job failed; it will be delivered again'),
    RETRY_DELAY_MS,
  );
}
