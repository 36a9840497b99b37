import { AppError, notFound } from '@spa/errors';
import type { Delivery } from './model.js';
import { getWebhook } from './manage-webhooks.js';
import { payloadJson } from './payload.js';
import type { WebhooksDeps } from './ports.js';
import { newDelivery } from './record-event.js';

export const DEFAULT_DELIVERY_PAGE = 50;
export const MAX_DELIVERY_PAGE = 200;

/** The delivery log of a webhook, newest first. */
export async function listDeliveries(deps: WebhooksDeps, webhookId: number, limit: number, workspaceId?: number): Promise<Delivery[]> {
  await getWebhook(deps, webhookId, workspaceId);
  return deps.store.listDeliveries(webhookId, Math.min(Math.max(limit || DEFAULT_DELIVERY_PAGE, 1), MAX_DELIVERY_PAGE));
}

/** Queues a webhook.test delivery now (to a disabled webhook too: it is how an operator checks a fixed endpoint). */
export async function sendTestEvent(deps: WebhooksDeps, webhookId: number, workspaceId?: number): Promise<Delivery> {
  const webhook = await getWebhook(deps, webhookId, workspaceId);
  const now = deps.clock.now();
  const delivery = newDelivery(deps, webhook, 'webhook.test', `test:${deps.newId()}`, (id) => payloadJson(id, 'webhook.test', 0, now, 'test', []));
  await deps.store.insertDelivery(delivery);
  return delivery;
}

/**
 * Sends a finished delivery once more, now: same payload id, the attempt number continues.
 * A delivery still being retried is refused (its next attempt is already scheduled).
 */
export async function redeliver(deps: WebhooksDeps, deliveryId: string, workspaceId?: number): Promise<Delivery> {
  const delivery = await deps.store.getDelivery(deliveryId);
  if (!delivery || (workspaceId !== undefined && delivery.workspaceId !== workspaceId)) throw notFound(`Delivery ${deliveryId}`);
  if (delivery.status === 'scheduled') {
    throw new AppError('INVALID_STATE', `Delivery ${deliveryId} is still scheduled (attempt ${delivery.attempts + 1} is pending); only a finished delivery can be redelivered`);
  }
  const patch = { status: 'scheduled' as const, attemptLimit: delivery.attempts + 1, nextAttemptAt: deps.clock.now(), finishedAt: undefined };
  await deps.store.updateDelivery(deliveryId, patch);
  return { ...delivery, ...patch };
}
