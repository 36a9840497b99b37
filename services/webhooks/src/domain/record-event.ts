import { MAX_ATTEMPTS } from './schedule.js';
import type { Delivery, EventKind, Webhook } from './model.js';
import { eventKindOf, payloadJson, type PostTerminalEvent } from './payload.js';
import type { FirstAttempts, WebhooksDeps } from './ports.js';
import { storeHoldingFirstAttempt } from './deliver-attempt.js';

export function newDelivery(deps: WebhooksDeps, webhook: Webhook, event: EventKind, sourceKey: string, build: (id: string) => string): Delivery {
  const id = deps.newId();
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

/**
 * Turns a post's terminal event into one delivery per subscribed, enabled webhook of the post's own
 * workspace. Idempotent: the (webhook, source event) pair is unique, so a redelivered event adds nothing.
 * Returns the number of deliveries created. With `first` (the dispatcher), each delivery's first attempt
 * starts as it is stored: stored holding it where there was room to send it at once, else offered to
 * wait for room.
 */
export async function recordPostTerminal(deps: WebhooksDeps, event: PostTerminalEvent, first?: FirstAttempts): Promise<number> {
  const kind = eventKindOf(event.status);
  if (!kind) return 0;
  const webhooks = await deps.store.subscribers(event.workspaceId, kind);
  let count = 0;
  for (const webhook of webhooks) {
    const delivery = newDelivery(deps, webhook, kind, event.sourceKey, (id) => payloadJson(id, kind, event.postId, event.occurredAt, event.status, event.platforms, event.dryRun));
    if (!first?.reserve(webhook)) {
      if (!(await deps.store.insertDelivery(delivery))) continue;
      first?.offer(delivery, webhook);
    } else {
      let held: Delivery | null = null;
      try {
        held = await storeHoldingFirstAttempt(deps, delivery);
      } finally {
        if (!held) first.release(webhook);
      }
      if (!held) continue;
      first.startHeld(held, webhook);
    }
    count++;
  }
  return count;
}
