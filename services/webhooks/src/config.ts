import { env, loadConfig, z, operationsEnv } from '@spa/config';

export const configSchema = z.object({
  LOG_LEVEL: env.logLevel,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().min(1).default('spa_webhooks'),
  NATS_URL: env.natsUrl,
  GRPC_HOST: env.host,
  GRPC_PORT: env.port(50057),
  ...operationsEnv(9470),
  /** Encrypts webhook secrets at rest (AES-256-GCM; the key is its SHA-256). */
  SECRETS_KEY: z.string().min(32, 'must be at least 32 characters'),
  /** Local development and tests only: allow plain http and loopback/private/link-local targets. */
  WEBHOOKS_ALLOW_PRIVATE: env.bool(false),
  /** Names this deployment: posts events of another deployment sharing the NATS server are skipped. */
  JOBS_NAMESPACE: env.namespace,
  /** Durable JetStream consumer of posts.post.terminal (one name per deployment). */
  WEBHOOKS_CONSUMER: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only')
    .default('webhooks-post-terminal'),
  /** Durable JetStream consumer of the deployment's public events (stream EVENTS); default `webhooks-events-<JOBS_NAMESPACE>`. */
  WEBHOOKS_EVENTS_CONSUMER: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only')
    .optional(),
  /** How often the dispatcher looks for due attempts (it is also woken by new events). */
  WEBHOOKS_POLL_INTERVAL_MS: env.millis(1_000),
  /**
   * Attempts in flight at once, in all and per webhook (a slow receiver holds only its own slots). Each
   * attempt mostly waits (store round trips, the receiver), so 512 at once; 128 left a burst of 100
   * healthy receivers queued in the dispatcher.
   */
  WEBHOOKS_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(512),
  WEBHOOKS_CONCURRENCY_PER_WEBHOOK: z.coerce.number().int().min(1).max(1_000).default(8),
});

export type WebhooksConfig = z.infer<typeof configSchema>;
export const loadWebhooksConfig = (): WebhooksConfig => loadConfig(configSchema);
