import { resumeOrigin } from '@spa/telemetry';
import { PublishJob } from '@spa/contracts/events/v1/jobs';
import { ensureStream, jetstream, publishEvent, publishJobSubject, PUBLISH_JOBS_STREAM, type NatsConnection } from '@spa/nats';
import type { PublishJobs } from '../domain/ports.js';
import { postMessage } from '../grpc/post-message.js';

/** Publish jobs on the work queue; a job sent as its post was moved to publishing carries the post (the publisher need not read it). */
export async function publishJobs(nc: NatsConnection, namespace: string): Promise<PublishJobs> {
  await ensureStream(nc, PUBLISH_JOBS_STREAM);
  const js = jetstream(nc);
  return {
    send: ({ dispatchId, post, moved }) =>
      resumeOrigin(post.origin, () =>
        publishEvent(
          js,
          publishJobSubject(namespace),
          PublishJob.encode({ workspaceId: post.workspaceId, postId: post.id, dispatchId, post: moved ? postMessage(post) : undefined }).finish(),
          dispatchId,
        ),
      ),
  };
}
