import { eventKindCodec } from '@spa/contracts/codecs';
import { PublicEvent } from '@spa/contracts/events/v1/public';
import { eventSubject, publishEvent, type JetStreamClient } from '@spa/nats';
import type { EventKind } from '@spa/vocabulary';
import { v5 as uuidV5 } from 'uuid';

/** A workspace's public event, as its owner makes it and the event log and webhooks serve it. */
export interface PublicEventRecord {
  /** UUID: the log entry's id, the `event_id` of its webhook deliveries, and its Nats-Msg-Id. */
  id: string;
  workspaceId: number;
  kind: EventKind;
  /** The version of the kind's `data` (EVENT_VERSIONS). */
  version: number;
  occurredAt: Date;
  /** The kind's public `data` (snake_case JSON, exactly as delivered). */
  data: Record<string, unknown>;
}

/**
 * The version of each kind's `data`. A change that could break a consumer (a field removed, renamed or
 * retyped) gets a new version; adding a field does not.
 */
export const EVENT_VERSIONS: Readonly<Record<EventKind, number>> = {
  'post.published': 1,
  'post.failed': 1,
  'post.partial_failure': 1,
  'post.created': 1,
  'post.updated': 1,
  'post.scheduled': 1,
  'post.deleted': 1,
  'post.approved': 1,
  'post.rejected': 1,
  'account.connected': 1,
  'account.disconnected': 1,
  'account.reauth_required': 1,
  'account.expiring': 1,
  'image_week_run.completed': 1,
  'image_week_run.failed': 1,
  'site_push.consumed': 1,
};

/** Namespace of event ids derived from their source (UUID v5): fixed for good. */
const EVENT_ID_NAMESPACE = '8d5e2f41-3c7a-4b9e-a1d6-5f0b2c9e7a13';

/**
 * The id of the event a source message announces (`sourceKey`: the owner's own event key, e.g. its outbox
 * entry's id), for one kind, in one deployment: the same however often it is derived, so the publisher of the
 * event and a consumer of the source message (webhooks' terminal deliveries) agree on it without asking.
 */
export function eventIdOf(namespace: string, sourceKey: string, kind: EventKind): string {
  return uuidV5(`${namespace}:${sourceKey}:${kind}`, EVENT_ID_NAMESPACE);
}

export function encodePublicEvent(e: PublicEventRecord): Uint8Array {
  return PublicEvent.encode({
    id: e.id,
    workspaceId: e.workspaceId,
    kind: eventKindCodec.toProto(e.kind),
    version: e.version,
    occurredAt: e.occurredAt.toISOString(),
    dataJson: JSON.stringify(e.data),
  }).finish();
}

/** The event a message carries; throws on one this build cannot read (an unknown kind, bad JSON). */
export function decodePublicEvent(bytes: Uint8Array): PublicEventRecord {
  const e = PublicEvent.decode(bytes);
  return {
    id: e.id,
    workspaceId: e.workspaceId,
    kind: eventKindCodec.require(e.kind),
    version: e.version,
    occurredAt: new Date(e.occurredAt),
    data: JSON.parse(e.dataJson) as Record<string, unknown>,
  };
}

/** A new event of `kind` (its version the current one). */
export function publicEvent(id: string, workspaceId: number, kind: EventKind, occurredAt: Date, data: Record<string, unknown>): PublicEventRecord {
  return { id, workspaceId, kind, version: EVENT_VERSIONS[kind], occurredAt, data };
}

/** Publishes the event on the EVENTS stream, its id as Nats-Msg-Id (a repeat within the window is dropped). */
export function publishPublicEvent(js: JetStreamClient, namespace: string, e: PublicEventRecord, bytes = encodePublicEvent(e)): Promise<void> {
  return publishEvent(js, eventSubject(namespace, e.workspaceId, e.kind), bytes, e.id, namespace);
}
