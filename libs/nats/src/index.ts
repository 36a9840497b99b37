import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { currentRequestId } from '@spa/logger';
import { currentTraceCarrier, type TraceCarrier } from '@spa/telemetry';

export type { NatsConnection, JetStreamClient };

/**
 * Without async traces (`noAsyncTraces`): by default the client builds an Error for every request (a JetStream
 * publish is one) to keep its call site for a possible timeout, which doubled a publish's CPU in this client
 * (measured: ~45 µs to ~21 µs per publish). A timeout still says what timed out.
 */
export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  return connect({ servers: url.split(','), name, maxReconnectAttempts: -1, noAsyncTraces: true });
}

export interface StreamSpec {
  name: string;
  subjects: string[];
  /** 'limits' for event logs, 'workqueue' for jobs consumed once. */
  retention?: 'limits' | 'workqueue';
  /** Window in which a repeated Nats-Msg-Id is dropped as a duplicate. */
  duplicateWindowMs?: number;
  /** How long a message is kept (default: for good, within the server's limits). */
  maxAgeMs?: number;
  /** Messages may be read one by one (`direct.getMessage`), by any replica. */
  allowDirect?: boolean;
}

/** Creates the stream, or updates it to the given subjects when it exists (idempotent). */
export async function ensureStream(nc: NatsConnection, spec: StreamSpec): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const config = {
    name: spec.name,
    subjects: spec.subjects,
    retention: spec.retention === 'workqueue' ? RetentionPolicy.Workqueue : RetentionPolicy.Limits,
    storage: StorageType.File,
    duplicate_window: (spec.duplicateWindowMs ?? 120_000) * 1_000_000,
    max_age: (spec.maxAgeMs ?? 0) * 1_000_000,
    allow_direct: spec.allowDirect ?? false,
  };
  try {
    await jsm.streams.info(spec.name);
    await jsm.streams.update(spec.name, { subjects: config.subjects, duplicate_window: config.duplicate_window, max_age: config.max_age, allow_direct: config.allow_direct });
  } catch (err) {
    if (!isStreamNotFound(err)) throw err;
    await jsm.streams.add(config);
  }
}

function isStreamNotFound(err: unknown): boolean {
  return err instanceof Error && /stream not found/i.test(err.message);
}

/**
 * Publishes an event into JetStream with a Nats-Msg-Id (duplicates within the stream's window
 * are dropped) and the current request id as a header.
 */
/**
 * The header naming the deployment (its JOBS_NAMESPACE) whose service published an event. Event subjects
 * are not per deployment (`posts.post.terminal`), so deployments sharing a NATS server (test stacks side
 * by side, staging beside production) see each other's events: a consumer skips those of another one.
 */
export const DEPLOYMENT_HEADER = 'spa-deployment';

/** Whether the message names a deployment other than `namespace` (one that names none is taken as ours). */
export function fromOtherDeployment(msg: { headers?: { get(key: string): string } | undefined }, namespace: string): boolean {
  const from = msg.headers?.get(DEPLOYMENT_HEADER);
  return !!from && from !== namespace;
}

export async function publishEvent(js: JetStreamClient, subject: string, payload: Uint8Array, msgId: string, deployment?: string): Promise<void> {
  const h = natsHeaders();
  if (deployment) h.set(DEPLOYMENT_HEADER, deployment);
  const requestId = currentRequestId();
  if (requestId) h.set('x-request-id', requestId);
  for (const [key, value] of Object.entries(currentTraceCarrier())) h.set(key, value);
  await js.publish(subject, payload, { msgID: msgId, headers: h });
}

export { jetstream };
export { credentialsChangedSubject, EVENTS_STREAM, eventSubject, workspaceEventsFilter, POSTS_STREAM, PUBLISH_JOBS_STREAM, publishJobSubject } from './streams.js';

/** NATS as a health dependency: a flush round trip (fails while disconnected or reconnecting). */
export function natsDependency(nc: NatsConnection): { name: string; check(): Promise<void> } {
  return {
    name: 'nats',
    check: async () => {
      if (nc.isClosed()) throw new Error('connection closed');
      await nc.flush();
    },
  };
}

/** The trace context a message carries in its headers (traceparent, tracestate), for its consumer's span. */
export function traceCarrierOfHeaders(headers: { get(key: string): string } | undefined): TraceCarrier | undefined {
  const traceparent = headers?.get('traceparent');
  if (!traceparent) return undefined;
  const tracestate = headers?.get('tracestate');
  return tracestate ? { traceparent, tracestate } : { traceparent };
}
export { ANALYTICS_STREAM, METRIC_RESULT_PARTITIONS, METRICS_STREAM, metricEndedSubject, metricFetchSubject, metricResultSubject, metricSnapshotSubject } from './streams.js';
export { consumeDurable, keepingInProgress, type DurableConsumerSpec, type JsMsg } from './consumers.js';
