import { AckPolicy, jetstreamManager, type Consumer } from '@nats-io/jetstream';
import { ImageWeekJob } from '@spa/contracts/events/v1/image_week';
import { withRequestId, type Logger } from '@spa/logger';
import { ensureStream, jetstream, publishEvent, type NatsConnection, type StreamSpec } from '@spa/nats';
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
export async function consumeImageWeekJobs(
  nc: NatsConnection,
  handle: (job: ImageWeekJob) => Promise<'done' | 'later'>,
  logger: Logger,
  { namespace, concurrency, ackWaitMs, retryDelayMs }: { namespace: string; concurrency: number; ackWaitMs: number; retryDelayMs: number },
): Promise<{ stop(): Promise<void> }> {
  const name = `image-week-${namespace}`;
  await ensureStream(nc, IMAGE_WEEK_JOBS_STREAM);
  const jsm = await jetstreamManager(nc);
  await jsm.consumers.add(IMAGE_WEEK_JOBS_STREAM.name, {
    durable_name: name,
    filter_subject: imageWeekJobSubject(namespace),
    ack_policy: AckPolicy.Explicit,
    ack_wait: ackWaitMs * 1_000_000,
    max_ack_pending: 1_000,
  });
  const consumer: Consumer = await jetstream(nc).consumers.get(IMAGE_WEEK_JOBS_STREAM.name, name);
  const messages = await consumer.consume({ max_messages: concurrency });
  const inFlight = new Set<Promise<void>>();
  const loop = (async () => {
    for await (const message of messages) {
      while (inFlight.size >= concurrency) await Promise.race(inFlight);
      const job = ImageWeekJob.decode(message.data);
      const heartbeat = setInterval(() => message.working(), Math.max(ackWaitMs / 3, 500));
      const task = withRequestId(message.headers?.get('x-request-id') || job.dispatchId, () => handle(job))
        .finally(() => clearInterval(heartbeat))
        .then((outcome) => (outcome === 'done' ? message.ack() : message.nak(retryDelayMs)))
        .catch((err: unknown) => {
          logger.warn({ err, run: job.runId, item: job.itemId }, 'image-week job failed; it will be delivered again');
          message.nak(retryDelayMs);
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
