import { DeliveryStatus as DeliveryStatusMessage, WebhooksServiceService, type Delivery as DeliveryMessage, type Webhook as WebhookMessage } from '@spa/contracts/webhooks/v1/webhooks';
import { eventKindCodec } from '@spa/contracts/codecs';
import { AppError, invalidParameters } from '@spa/errors';
import { bindService, type ServiceBinding } from '@spa/grpc';
import { listDeliveries, redeliver, sendTestEvent } from '../domain/deliveries.js';
import { listEvents, type EventLog } from '../domain/event-log.js';
import { createWebhook, deleteWebhook, disableWebhook, enableWebhook, listWebhooks, rotateSecret, setWebhookEvents } from '../domain/manage-webhooks.js';
import type { Delivery, DeliveryStatus, Webhook } from '../domain/model.js';
import type { WebhooksDeps } from '../domain/ports.js';

export function webhookMessage(w: Webhook): WebhookMessage {
  return {
    id: w.id,
    workspaceId: w.workspaceId,
    url: w.url,
    events: w.events,
    enabled: w.enabled,
    disabledReason: w.disabledReason,
    createdAt: w.createdAt.toISOString(),
    previousSecretExpiresAt: w.previousSecret ? w.previousSecretExpiresAt?.toISOString() : undefined,
  };
}

const STATUS: Record<DeliveryStatus, DeliveryStatusMessage> = {
  scheduled: DeliveryStatusMessage.DELIVERY_STATUS_SCHEDULED,
  succeeded: DeliveryStatusMessage.DELIVERY_STATUS_SUCCEEDED,
  failed: DeliveryStatusMessage.DELIVERY_STATUS_FAILED,
  canceled: DeliveryStatusMessage.DELIVERY_STATUS_CANCELED,
};

export function deliveryMessage(d: Delivery): DeliveryMessage {
  return {
    id: d.id,
    webhookId: d.webhookId,
    event: d.event,
    status: STATUS[d.status],
    attempts: d.attempts,
    nextAttemptAt: d.status === 'scheduled' ? d.nextAttemptAt?.toISOString() : undefined,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
  };
}

function positive(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw invalidParameters([`${field} must be a positive integer`]);
  return value;
}

/** gRPC transport of the webhooks service; `afterEnqueue` wakes the dispatcher when a delivery is queued. */
export function webhooksService(deps: WebhooksDeps, afterEnqueue: () => void, eventLog?: EventLog): ServiceBinding {
  return bindService('webhooks.v1.WebhooksService', WebhooksServiceService, {
    createWebhook: async (req) => {
      const { webhook, secret } = await createWebhook(deps, { workspaceId: req.workspaceId, url: req.url, events: req.events });
      return { webhook: webhookMessage(webhook), secret };
    },
    listWebhooks: async (req) => ({ webhooks: (await listWebhooks(deps, positive(req.workspaceId, 'workspace_id'))).map(webhookMessage) }),
    disableWebhook: async (req) => ({ webhook: webhookMessage(await disableWebhook(deps, positive(req.webhookId, 'webhook_id'), req.workspaceId)) }),
    enableWebhook: async (req) => ({ webhook: webhookMessage(await enableWebhook(deps, positive(req.webhookId, 'webhook_id'), req.workspaceId)) }),
    deleteWebhook: async (req) => ({ webhook: webhookMessage(await deleteWebhook(deps, positive(req.webhookId, 'webhook_id'), req.workspaceId)) }),
    rotateWebhookSecret: async (req) => {
      const { webhook, secret } = await rotateSecret(deps, positive(req.webhookId, 'webhook_id'), req.workspaceId);
      return { webhook: webhookMessage(webhook), secret };
    },
    listDeliveries: async (req) => ({
      deliveries: (await listDeliveries(deps, positive(req.webhookId, 'webhook_id'), req.limit, req.workspaceId)).map(deliveryMessage),
    }),
    redeliverDelivery: async (req) => {
      if (!/^[0-9a-f-]{36}$/.test(req.deliveryId)) throw invalidParameters(['delivery_id must be a delivery id (UUID)']);
      const delivery = await redeliver(deps, req.deliveryId, req.workspaceId);
      afterEnqueue();
      return { delivery: deliveryMessage(delivery) };
    },
    sendTestEvent: async (req) => {
      const delivery = await sendTestEvent(deps, positive(req.webhookId, 'webhook_id'), req.workspaceId);
      afterEnqueue();
      return { delivery: deliveryMessage(delivery) };
    },
    setWebhookEvents: async (req) => ({ webhook: webhookMessage(await setWebhookEvents(deps, positive(req.webhookId, 'webhook_id'), req.events, req.workspaceId)) }),
    listEvents: async (req) => {
      if (!eventLog) throw new AppError('SERVICE_UNAVAILABLE', 'The event log is not available');
      const kinds = req.kinds.map((k) => eventKindCodec.fromProto(k) ?? `unknown kind ${k}`);
      const page = await listEvents(eventLog, { workspaceId: req.workspaceId, after: req.after, kinds, limit: req.limit });
      return {
        events: page.events.map(({ cursor, event: e }) => ({
          cursor,
          id: e.id,
          kind: eventKindCodec.toProto(e.kind),
          version: e.version,
          occurredAt: e.occurredAt.toISOString(),
          dataJson: JSON.stringify(e.data),
        })),
        nextCursor: page.nextCursor,
        hasMore: page.hasMore,
      };
    },
  });
}
