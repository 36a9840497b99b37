import { WebhooksServiceClient, DeliveryStatus, type Delivery, type Webhook } from '@spa/contracts/webhooks/v1/webhooks';
import { env, loadConfig, z } from '@spa/config';
import { createClient, type PromiseClient } from '@spa/grpc';

/** spa-admin webhook commands: the dashboard's webhook settings and delivery log, over gRPC to the webhooks service. */

type Flags = Record<string, string | boolean | undefined>;
type Webhooks = PromiseClient<WebhooksServiceClient>;

/** Flags the webhook commands add (--url is shared with site create). */
export const WEBHOOK_FLAGS = ['events', 'webhook', 'delivery'];

export const WEBHOOK_USAGE = `  webhook create --workspace W --url URL [--events e1,e2]   (default: post.published,post.failed,post.partial_failure)
  webhook events --webhook ID --events e1,e2   (the event kinds it receives; "" for the default)
  webhook list --workspace W
  webhook disable|enable|rotate-secret|deliveries|test --webhook ID
  webhook delete --webhook ID   (with its delivery log; its place among the workspace's 5 is free again)
  webhook redeliver --delivery ID
environment: WEBHOOKS_ADDR (default 127.0.0.1:50057)`;

/** A usage error, reported by main like parseArgs' own (exit code 2). */
function usage(message: string): Error {
  return Object.assign(new TypeError(message), { code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' });
}
function flag(flags: Flags, name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || v === '') throw usage(`--${name} is required`);
  return v;
}
function id(flags: Flags, name: string): number {
  const v = flag(flags, name);
  if (!/^\d+$/.test(v)) throw usage(`--${name} must be a positive integer`);
  return Number(v);
}

const STATUS_NAMES: Record<number, string> = {
  [DeliveryStatus.DELIVERY_STATUS_SCHEDULED]: 'scheduled',
  [DeliveryStatus.DELIVERY_STATUS_SUCCEEDED]: 'succeeded',
  [DeliveryStatus.DELIVERY_STATUS_FAILED]: 'failed',
  [DeliveryStatus.DELIVERY_STATUS_CANCELED]: 'canceled',
};

const webhookJson = (w: Webhook | undefined) =>
  w && {
    webhook_id: w.id,
    workspace_id: w.workspaceId,
    url: w.url,
    events: w.events,
    enabled: w.enabled,
    disabled_reason: w.disabledReason ?? null,
    created_at: w.createdAt,
    previous_secret_expires_at: w.previousSecretExpiresAt ?? null,
  };

const deliveryJson = (d: Delivery | undefined) =>
  d && {
    delivery_id: d.id,
    webhook_id: d.webhookId,
    event: d.event,
    status: STATUS_NAMES[d.status] ?? 'unknown',
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt ?? null,
    last_error: d.lastError ?? null,
    created_at: d.createdAt,
  };

/** Runs one call with a client to WEBHOOKS_ADDR, closed afterwards. */
async function withWebhooks<T>(call: (w: Webhooks) => Promise<T>): Promise<T> {
  const config = loadConfig(z.object({ WEBHOOKS_ADDR: env.address('127.0.0.1:50057') }));
  const client = createClient(WebhooksServiceClient, config.WEBHOOKS_ADDR, { deadlineMs: 10_000 });
  try {
    return await call(client);
  } finally {
    client.close();
  }
}

/** Commands by name; the first argument (main's accounts client) is not used. */
export const WEBHOOK_COMMANDS: Record<string, (accounts: unknown, flags: Flags) => Promise<unknown>> = {
  'webhook create': (_, f) => {
    const events = typeof f.events === 'string' ? f.events.split(',').filter(Boolean) : [];
    return withWebhooks(async (w) => {
      const r = await w.createWebhook({ workspaceId: id(f, 'workspace'), url: flag(f, 'url'), events });
      return { webhook_id: r.webhook?.id, secret: r.secret };
    });
  },
  'webhook events': (_, f) => {
    if (typeof f.events !== 'string') throw usage('--events is required (comma-separated kinds; "" for the default)');
    const events = f.events
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    return withWebhooks(async (w) => webhookJson((await w.setWebhookEvents({ webhookId: id(f, 'webhook'), events })).webhook));
  },
  'webhook list': (_, f) => withWebhooks(async (w) => ({ webhooks: (await w.listWebhooks({ workspaceId: id(f, 'workspace') })).webhooks.map(webhookJson) })),
  'webhook disable': (_, f) => withWebhooks(async (w) => webhookJson((await w.disableWebhook({ webhookId: id(f, 'webhook') })).webhook)),
  'webhook enable': (_, f) => withWebhooks(async (w) => webhookJson((await w.enableWebhook({ webhookId: id(f, 'webhook') })).webhook)),
  'webhook delete': (_, f) => withWebhooks(async (w) => ({ deleted: webhookJson((await w.deleteWebhook({ webhookId: id(f, 'webhook') })).webhook) })),
  'webhook rotate-secret': (_, f) =>
    withWebhooks(async (w) => {
      const r = await w.rotateWebhookSecret({ webhookId: id(f, 'webhook') });
      return { webhook_id: r.webhook?.id, secret: r.secret, previous_secret_expires_at: r.webhook?.previousSecretExpiresAt };
    }),
  'webhook deliveries': (_, f) => withWebhooks(async (w) => ({ deliveries: (await w.listDeliveries({ webhookId: id(f, 'webhook'), limit: 0 })).deliveries.map(deliveryJson) })),
  'webhook redeliver': (_, f) => withWebhooks(async (w) => deliveryJson((await w.redeliverDelivery({ deliveryId: flag(f, 'delivery') })).delivery)),
  'webhook test': (_, f) => withWebhooks(async (w) => deliveryJson((await w.sendTestEvent({ webhookId: id(f, 'webhook') })).delivery)),
};
