import { ImageWeekJob } from '@spa/contracts/events/v1/image_week';
import { withRequestId, type Logger } from '@spa/logger';
import { consumeDurable, ensureStream, jetstream, keepingInProgress, publishEvent, type NatsConnection, type StreamSpec } from '@spa/nats';
import type { Jobs } from '../domain/ports.js';

/** Quote Week work queue: each job is consumed once, by one image-week replica. */
export const IMAGE_WEEK_JOBS_STREAM: StreamSpec = { name: 'IMAGE_WEEK_JOBS', subjects: ['image_week.jobs.>'], retention: 'workqueue' };
export const imageWeekJobSubject = (namespace: string) => `image_week.jobs.${namespace}.work`;

export async function imageWeekJobs(nc: NatsConnection, namespace: string): Promise<Jobs> {
  await ensureStream(nc, IMAGE_WEEK_JOBS_STREAM);
  const js = jetstream(nc);
  return {
    dispatch: (job) => publishEvent(js, imageWeekJobSubject(namespace), ImageWeekJob.encode(job).finish(), job.dispatchId),
  };
}

/**
 * Consumes Quote Week jobs, up to `concurrency` at once. While a job runs the message is kept in progress, so a
 * long one is not delivered twice; a worker that dies stops saying so and the job goes to another after ackWaitMs
 * (the item's lease in the database has expired by then, and the item continues from what it records).
 */
export function consumeImageWeekJobs(
  nc: NatsConnection,
  handle: (job: ImageWeekJob) => Promise<'done' | 'later'>,
  logger: Logger,
  { namespace, concurrency, ackWaitMs, retryDelayMs }: { namespace: string; concurrency: number; ackWaitMs: number; retryDelayMs: number },
): Promise<{ stop(): Promise<void> }> {
  return consumeDurable(
    nc,
    { stream: IMAGE_WEEK_JOBS_STREAM, durable: `image-week-${namespace}`, filterSubject: imageWeekJobSubject(namespace), startAt: 'all', ackWaitMs, parallel: concurrency },
    async (message) => {
      const job = ImageWeekJob.decode(message.data);
      const outcome = await keepingInProgress(message, ackWaitMs, () => withRequestId(message.headers?.get('x-request-id') || job.dispatchId, () => handle(job)));
      if (outcome === 'done') message.ack();
      else message.nak(retryDelayMs);
    },
    (err, message) => logger.warn({ err, seq: message.seq }, 'image-week job failed; it will be delivered again'),
    retryDelayMs,
  );
}
