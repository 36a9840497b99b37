import { Counter, Gauge, Histogram } from 'prom-client';
import { registry } from './registry.js';

/**
 * The signals operators page on. Each is incremented where the event happens; labels are closed sets
 * (platform ids, outcome and error-class names, provider names), never ids or free text.
 */

/** Publish outcomes per target: outcome `posted | failed | dry_run | retried`, `error_class` a public code or `none`. */
export const publishOutcomes = new Counter({
  name: 'publish_outcomes_total',
  help: 'Publish attempts finished, by platform, outcome and error class',
  labelNames: ['platform', 'outcome', 'error_class'] as const,
  registers: [registry],
});

/** Lag from a post's scheduled_at to the platform call, in seconds. */
export const publishLag = new Histogram({
  name: 'publish_lag_seconds',
  help: 'Seconds from scheduled_at to the platform call',
  labelNames: ['platform'] as const,
  buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 900],
  registers: [registry],
});

/** JetStream consumers: messages pending and redeliveries seen, per stream and consumer name (fixed names). */
export const jetstreamPending = new Gauge({
  name: 'jetstream_consumer_pending',
  help: 'Messages pending for a durable JetStream consumer',
  labelNames: ['stream', 'consumer'] as const,
  registers: [registry],
});
export const jetstreamRedeliveries = new Counter({
  name: 'jetstream_redeliveries_total',
  help: 'JetStream messages received again (redelivered) by a consumer',
  labelNames: ['consumer'] as const,
  registers: [registry],
});

/** Webhook delivery attempts by outcome (`delivered | failed | timeout`), and webhooks disabled after failures. */
export const webhookAttempts = new Counter({
  name: 'webhook_attempts_total',
  help: 'Webhook delivery attempts, by outcome',
  labelNames: ['outcome'] as const,
  registers: [registry],
});
export const webhooksDisabled = new Counter({
  name: 'webhooks_disabled_total',
  help: 'Webhooks disabled after consecutive failed events',
  registers: [registry],
});

/** Generations per provider (`builtin`, `openai-compatible`), and whether the answer was degraded. */
export const generations = new Counter({
  name: 'generations_total',
  help: 'AI generations, by provider and degraded (true when a fallback model or the built-in composer answered)',
  labelNames: ['provider', 'degraded'] as const,
  registers: [registry],
});

/** Requests refused by a quota (`daily_generation`, `quote_week_monthly`, ...). */
export const quotaRefusals = new Counter({
  name: 'quota_refusals_total',
  help: 'Requests refused because a quota was exhausted',
  labelNames: ['quota'] as const,
  registers: [registry],
});

/** Quote Week items: time to a verified card, and cards whose read-back did not match. */
export const quoteWeekItemDuration = new Histogram({
  name: 'quote_week_item_duration_seconds',
  help: 'Seconds to render and verify one Quote Week card',
  buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  registers: [registry],
});
export const quoteWeekGarbles = new Counter({
  name: 'quote_week_garbles_total',
  help: 'Quote Week cards whose read-back text did not match the quote',
  registers: [registry],
});

/** Metric fetches from the platforms, by platform and outcome (`ok | rate_limited | disconnected | failed`). */
export const metricsFetches = new Counter({
  name: 'metrics_fetches_total',
  help: 'Post metric fetches from the platforms, by platform and outcome',
  labelNames: ['platform', 'outcome'] as const,
  registers: [registry],
});

/** Whether each dependency a process needs answered its last check (1) or not (0). */
export const dependencyUp = new Gauge({
  name: 'dependency_up',
  help: 'Whether a dependency of this process answered its last health check',
  labelNames: ['dependency'] as const,
  registers: [registry],
});
