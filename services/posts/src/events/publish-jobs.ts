import { resumeOrigin } from '@spa/telemetry';
import { PublishJob } from '@spa/contracts/events/v1/jobs';
import { ensureStream, jetstream, publishEvent, publishJobSubject, PUBLISH_JOBS_STREAM, type NatsConnection } from '@spa/nats';
import type { PublishJobs } from '../domain/ports.js';

export async function publishJobs(nc: NatsConnection, namespace: string): Promise<PublishJobs> {
  await ensureStream(nc, PUBLISH_JOBS_STREAM);
  const js = jetstream(nc);
  return {
    send: (job, origin) => resumeOrigin(origin, () => publishEvent(js, publishJobSubject(namespace), PublishJob.encode(job).finish(), job.dispatchId)),
  };
}
