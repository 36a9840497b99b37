import { v5 as uuidV5 } from 'uuid';
import { MAX_ATTEMPTS } from './schedule.js';
import { POST_EVENTS, type Delivery, type EventKind, type SubscribableKind, type Webhook } from './model.js';
import { eventKindOf, lifecyclePayloadJson, payloadJson, type LoggedEvent, type PostTerminalEvent } from './payload.js';
import type { FirstAttempts, WebhooksDeps } from './ports.js';

/** Namespace of delivery ids (UUID v5 of the webhook and the source event): fixed for good. */
const DELIVERY_ID_NAMESPACE = '3f0c7b52-6a1e-4d1b-9a43-2f5d8e1c7a90';

/**
 * The id of the delivery of one source event to one webhook: the same each time the event is handled,
 * so a handling that finds attempt 1 of it claimed knows the event was handled before (`sendFirstAttempt`),
 * and a receiver sees one payload id however often the event reaches us.
 */
export function deliveryIdOf(webhookId: number, sourceKey: string): string {
  return uuidV5(`${webhookId}:${sourceKey}`, DELIVERY_ID_NAMESPACE);
}

export function newDelivery(deps: WebhooksDeps, webhook: Webhook, event: EventKind, sourceKey: string, build: (id: string) => string): Delivery {
  const id = deliveryIdOf(webhook.id, sourceKey);
  const now = deps.clock.now();
  return {
    id,
    webhookId: webhook.id,
    workspaceId: webhook.workspaceId,
    event,
    sourceKey,
    payload: build(id),
    status: 'scheduled',
    attempts: 0,
    attemptLimit: MAX_ATTEMPTS,
    nextAttemptAt: now,
    createdAt: now,
  };
}

/** An event being handled: `recorded` resolves with the number of deliveries created, once every one is stored. */
export interface EventRecording {
  recorded: Promise<number>;
}

/** A post's terminal event, delivered to the webhooks of its workspace subscribed to its kind (`recordDeliveries`). */
export async function recordPostTerminal(deps: WebhooksDeps, event: PostTerminalEvent, first?: FirstAttempts): Promise<EventRecording> {
  const kind = eventKindOf(event.status);
  if (!kind) return { recorded: Promise.resolve(0) };
  return recordDeliveries(deps, event.workspaceId, kind, event.sourceKey, first, (id) =>
    payloadJson(id, kind, event.postId, event.occurredAt, event.status, event.platforms, event.dryRun, event.eventId),
  );
}

/**
 * A lifecycle event of the event log, delivered as `recordPostTerminal` delivers a terminal one: once per
 * subscribed webhook, its source being the event id (a relay's repeat adds nothing). The terminal kinds are
 * delivered from the posts service's own event (`recordPostTerminal`), not from the log: skipped here.
 */
export async function recordLoggedEvent(deps: WebhooksDeps, event: LoggedEvent, first?: FirstAttempts): Promise<EventRecording> {
  if ((POST_EVENTS as readonly string[]).includes(event.kind)) return { recorded: Promise.resolve(0) };
  return recordDeliveries(deps, event.workspaceId, event.kind, event.id, first, (id) => lifecyclePayloadJson(id, event));
}

/**
 * One delivery per subscribed, enabled webhook of the workspace. Idempotent: a delivery's id is derived from its
 * webhook and its source, so an event handled again adds nothing. With `first` (the dispatcher), each delivery's
 * first attempt starts from the event: sent at once where there is room, the delivery stored after it with its
 * outcome, else stored due and offered to wait for room. Returns once the deliveries sent at once are started and
 * the others stored; the event may be acknowledged once `recorded` resolves (a rejection: handle it again).
 */
async function recordDeliveries(
  deps: WebhooksDeps,
  workspaceId: number,
  kind: SubscribableKind,
  sourceKey: string,
  first: FirstAttempts | undefined,
  build: (id: string) => string,
): Promise<EventRecording> {
  const webhooks = await deps.store.subscribers(workspaceId, kind);
  const sent: Array<Promise<boolean>> = [];
  const stored: Array<Promise<boolean>> = [];
  for (const webhook of webhooks) {
    const delivery = newDelivery(deps, webhook, kind, sourceKey, build);
    const sending = first?.sendFirst(delivery, webhook);
    if (sending) sent.push(sending);
    else stored.push(storeDue(deps, delivery, webhook, first));
  }
  const recorded = Promise.all([...sent, ...stored]).then((created) => created.filter(Boolean).length);
  recorded.catch(() => undefined); // the caller handles it once this returns; never unhandled before
  await Promise.all(stored);
  return { recorded };
}

/** Stores a delivery due now and offers it to wait for room; false when it existed already. */
async function storeDue(deps: WebhooksDeps, delivery: Delivery, webhook: Webhook, first?: FirstAttempts): Promise<boolean> {
  if (!(await deps.store.insertDelivery(delivery))) return false;
  first?.offer(delivery, webhook);
  return true;
}
