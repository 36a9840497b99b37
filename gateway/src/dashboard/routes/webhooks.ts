import { DeliveryStatus, type Delivery, type Webhook } from '@spa/contracts/webhooks/v1/webhooks';
import { LIFECYCLE_EVENT_KINDS, TERMINAL_EVENT_KINDS } from '@spa/vocabulary';
import { z } from 'zod';
import { validate } from '../../http/validate.js';
import { idParam } from '../../routes/schemas.js';
import type { DashboardRoute } from '../context.js';

const STATUS_NAMES = {
  [DeliveryStatus.DELIVERY_STATUS_SCHEDULED]: 'scheduled',
  [DeliveryStatus.DELIVERY_STATUS_SUCCEEDED]: 'succeeded',
  [DeliveryStatus.DELIVERY_STATUS_FAILED]: 'failed',
  [DeliveryStatus.DELIVERY_STATUS_CANCELED]: 'canceled',
} as Record<number, string>;
const DELIVERY_STATUSES = ['scheduled', 'succeeded', 'failed', 'canceled'] as const;

const CreateBody = z.object({ url: z.string().trim().min(1).max(2048), events: z.array(z.string().min(1).max(100)).max(50).default([]) }).strict();
const EventsBody = z.object({ events: z.array(z.string().min(1).max(100)).max(50) }).strict();
/** The kinds a webhook can choose: the default (the contract's terminal post events) and the opt-in lifecycle kinds. */
const KINDS = { default: TERMINAL_EVENT_KINDS, lifecycle: LIFECYCLE_EVENT_KINDS };
const IdParams = z.object({ id: idParam });
const DeliveryParams = z.object({ id: z.uuid() });
const DeliveriesQuery = z.object({ status: z.enum(DELIVERY_STATUSES).optional(), event: z.string().min(1).max(100).optional() }).strict();

/**
 * The webhooks service records every manual disable as an operator's, whoever did it (a member here, the
 * API, or an operator): the page does not claim who, only that it was turned off by hand.
 */
const disabledReason = (reason: string | undefined) => (!reason ? null : reason === 'disabled by an operator' ? 'turned off by hand; enable it to receive events again' : reason);

const webhookJson = (w: Webhook | undefined) =>
  w && {
    id: w.id,
    url: w.url,
    events: w.events,
    enabled: w.enabled,
    disabled_reason: disabledReason(w.disabledReason),
    created_at: w.createdAt,
    previous_secret_expires_at: w.previousSecretExpiresAt ?? null,
  };

const deliveryJson = (d: Delivery | undefined) =>
  d && {
    id: d.id,
    webhook_id: d.webhookId,
    event: d.event,
    status: STATUS_NAMES[d.status] ?? 'unknown',
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt ?? null,
    last_error: d.lastError ?? null,
    created_at: d.createdAt,
  };

/** The webhooks page: endpoints of the workspace, their delivery log and manual redelivery (the webhooks service decides). */
export const webhookRoutes: DashboardRoute[] = [
  {
    method: 'get',
    path: '/webhooks',
    handle: async (ctx) => ({ webhooks: (await ctx.clients.webhooks.listWebhooks({ workspaceId: ctx.workspace.id })).webhooks.map(webhookJson), kinds: KINDS }),
  },
  {
    // The kinds the webhook receives (none: the default); the webhooks service names an unknown one.
    method: 'post',
    path: '/webhooks/:id/events',
    handle: async (ctx, req) => {
      const { id } = validate(IdParams, req.params, 'path parameters');
      const body = validate(EventsBody, req.body ?? undefined, 'request body');
      return { webhook: webhookJson((await ctx.clients.webhooks.setWebhookEvents({ workspaceId: ctx.workspace.id, webhookId: id, events: body.events })).webhook) };
    },
  },
  {
    method: 'post',
    path: '/webhooks',
    status: 201,
    handle: async (ctx, req) => {
      const body = validate(CreateBody, req.body ?? undefined, 'request body');
      const r = await ctx.clients.webhooks.createWebhook({ workspaceId: ctx.workspace.id, url: body.url, events: body.events });
      return { webhook: webhookJson(r.webhook), secret: r.secret };
    },
  },
  ...(['enable', 'disable'] as const).map((action): DashboardRoute => ({
    method: 'post',
    path: `/webhooks/:id/${action}`,
    handle: async (ctx, req) => {
      const { id } = validate(IdParams, req.params, 'path parameters');
      const call = action === 'enable' ? ctx.clients.webhooks.enableWebhook : ctx.clients.webhooks.disableWebhook;
      return { webhook: webhookJson((await call({ workspaceId: ctx.workspace.id, webhookId: id })).webhook) };
    },
  })),
  {
    // Deleted with its delivery log; its place among the workspace's 5 webhooks is free again (a disabled one keeps it).
    method: 'delete',
    path: '/webhooks/:id',
    handle: async (ctx, req) => {
      const { id } = validate(IdParams, req.params, 'path parameters');
      return { deleted: webhookJson((await ctx.clients.webhooks.deleteWebhook({ workspaceId: ctx.workspace.id, webhookId: id })).webhook) };
    },
  },
  {
    method: 'post',
    path: '/webhooks/:id/rotate-secret',
    handle: async (ctx, req) => {
      const { id } = validate(IdParams, req.params, 'path parameters');
      const r = await ctx.clients.webhooks.rotateWebhookSecret({ workspaceId: ctx.workspace.id, webhookId: id });
      return { webhook: webhookJson(r.webhook), secret: r.secret };
    },
  },
  {
    method: 'post',
    path: '/webhooks/:id/test',
    status: 201,
    handle: async (ctx, req) => {
      const { id } = validate(IdParams, req.params, 'path parameters');
      return { delivery: deliveryJson((await ctx.clients.webhooks.sendTestEvent({ workspaceId: ctx.workspace.id, webhookId: id })).delivery) };
    },
  },
  {
    method: 'get',
    path: '/webhooks/:id/deliveries',
    handle: async (ctx, req) => {
      const { id } = validate(IdParams, req.params, 'path parameters');
      const query = validate(DeliveriesQuery, req.query, 'query parameters');
      const { deliveries } = await ctx.clients.webhooks.listDeliveries({ workspaceId: ctx.workspace.id, webhookId: id, limit: 200 });
      const shown = deliveries.map((d) => deliveryJson(d)!).filter((d) => (!query.status || d.status === query.status) && (!query.event || d.event === query.event));
      return { deliveries: shown, events: [...new Set(deliveries.map((d) => d.event))].sort(), statuses: DELIVERY_STATUSES };
    },
  },
  {
    method: 'post',
    path: '/deliveries/:id/redeliver',
    status: 201,
    handle: async (ctx, req) => {
      const { id } = validate(DeliveryParams, req.params, 'path parameters');
      return { delivery: deliveryJson((await ctx.clients.webhooks.redeliverDelivery({ workspaceId: ctx.workspace.id, deliveryId: id })).delivery) };
    },
  },
];
