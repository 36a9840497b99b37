import type { StreamSpec } from './index.js';

/** The JetStream streams of the system, named once for the services that publish and consume them. */

/** Events of the posts service: posts.post.created|reviewed|updated|deleted|terminal. */
export const POSTS_STREAM: StreamSpec = { name: 'POSTS', subjects: ['posts.>'] };

/** The publisher's work queue: each job is consumed once, by one publisher. */
export const PUBLISH_JOBS_STREAM: StreamSpec = { name: 'PUBLISH_JOBS', subjects: ['publisher.jobs.>'], retention: 'workqueue' };

/**
 * The subject of publish jobs of one deployment (`JOBS_NAMESPACE`): deployments (or test stacks)
 * sharing a NATS server each get their own jobs.
 */
export const publishJobSubject = (namespace: string): string => `publisher.jobs.${namespace}.publish`;
