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

/** Metric fetch jobs (analytics → publisher) and their results (publisher → analytics): each consumed once. */
export const METRICS_STREAM: StreamSpec = { name: 'METRICS', subjects: ['metrics.>'], retention: 'workqueue' };
export const metricFetchSubject = (namespace: string): string => `metrics.${namespace}.fetch`;
/** Results are partitioned by workspace, so one workspace's results are stored one at a time. */
export const metricResultSubject = (namespace: string, partition: number | '*'): string => `metrics.${namespace}.result.${partition}`;
/**
 * Results that end a target's fetches or carry no counts (gone, disconnected, failed): each touches only its
 * own target, so they are stored in parallel, apart from the ordered partitions, and a burst of them (posts
 * that vanished from a platform) never delays the counts of another post.
 */
export const metricEndedSubject = (namespace: string): string => `metrics.${namespace}.ended`;

/** Events of the analytics service: analytics.<namespace>.snapshot (the latest metrics of a target). */
export const ANALYTICS_STREAM: StreamSpec = { name: 'ANALYTICS', subjects: ['analytics.>'] };
export const metricSnapshotSubject = (namespace: string): string => `analytics.${namespace}.snapshot`;
/** How many result partitions there are (every publisher and analytics replica must agree: a constant). */
export const METRIC_RESULT_PARTITIONS = 16;

/**
 * Core NATS (no stream: every listener gets it live, nothing is kept): a social account's credentials
 * changed (`SocialAccountCredentialsChanged`, from accounts); publishers drop their cached copy.
 */
export const credentialsChangedSubject = (namespace: string): string => `accounts.${namespace}.credentials.changed`;

/**
 * The public events of every workspace (`events.v1.PublicEvent`), published by each owner from its outbox and
 * kept 30 days: the event log `GET /events` reads, and the webhooks service delivers from. Subject
 * `events.<namespace>.<workspace id>.<kind>` (a kind is two tokens, `post.created`). A repeated Nats-Msg-Id
 * (the event id) within 10 minutes is dropped: a relay that publishes again after a crash adds nothing.
 */
export const EVENTS_STREAM: StreamSpec = {
  name: 'EVENTS',
  subjects: ['events.>'],
  maxAgeMs: 30 * 24 * 60 * 60 * 1000,
  duplicateWindowMs: 10 * 60 * 1000,
  allowDirect: true,
};
export const eventSubject = (namespace: string, workspaceId: number, kind: string): string => `events.${namespace}.${workspaceId}.${kind}`;
/** Every event of one workspace, or of one kind of it. */
export const workspaceEventsFilter = (namespace: string, workspaceId: number | '*', kind?: string): string => `events.${namespace}.${workspaceId}.${kind ?? '>'}`;
