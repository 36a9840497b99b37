import { env, loadConfig, z, operationsEnv } from '@spa/config';

export const configSchema = z.object({
  LOG_LEVEL: env.logLevel,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().min(1).default('spa_publisher'),
  NATS_URL: env.natsUrl,
  GRPC_HOST: env.host,
  GRPC_PORT: env.port(50053),
  ...operationsEnv(9467),
  ACCOUNTS_ADDR: env.address('127.0.0.1:50051'),
  POSTS_ADDR: env.address('127.0.0.1:50052'),
  /** The media service: its record of LinkedIn uploads scopes each asset URN to the account that uploaded it. */
  MEDIA_ADDR: env.address('127.0.0.1:50055'),
  /** The analytics service, which makes Dub short links of a target's URLs at publish time; empty: URLs are published as written. */
  ANALYTICS_ADDR: z.string().default(''),
  /** Where media referenced by r2_key is read (the media store's public URL). */
  MEDIA_BASE_URL: z.url().default('http://127.0.0.1:8080/media'),
  /** When set, every platform is called at this loopback sandbox (`<url>/<platform>`) instead of its real API. */
  SANDBOX_URL: z.url().optional(),
  /** Names this deployment's publish jobs (the posts service must use the same). */
  JOBS_NAMESPACE: env.namespace,
  /**
   * Jobs in flight per process. Each job's result is a single-document write in the posts service, and
   * FerretDB 1.x hangs every client once ~50 of those run at once (each holds a PostgreSQL connection of
   * its pool of 50 and waits for another); 64 per publisher x 2 publishers did, in the 10,000-post bench.
   */
  PUBLISHER_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(16),
  /** Tries per target before it fails (transient errors and rate limits are retried). */
  PUBLISH_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(4),
  /** An attempt without an outcome this old belongs to a publisher that died (longer than any platform call). */
  PUBLISH_ATTEMPT_LEASE_MS: z.coerce.number().int().min(1_000).default(45_000),
  /**
   * How long an account's publishing credentials are reused between jobs (0: asked for every job);
   * dropped at once when accounts announces a change (reconnect, refresh, disconnect) or after a 401.
   */
  PUBLISHER_CREDENTIALS_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  /** A job not acknowledged (nor reported in progress) within this time is delivered again. */
  PUBLISH_JOB_ACK_WAIT_MS: z.coerce.number().int().min(1_000).default(30_000),
  /** Metric fetches run at once by this publisher. */
  METRICS_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(16),
  /** A metric fetch not acknowledged within this time (its publisher died) is delivered again. */
  METRICS_JOB_ACK_WAIT_MS: z.coerce.number().int().min(1_000).default(30_000),
  /** Tries of one metric fetch before it is recorded as failed (the next scheduled fetch still runs). */
  METRICS_MAX_DELIVERIES: z.coerce.number().int().min(1).max(100).default(8),
  /** Longest wait honoured from a platform's rate-limit hint before a fetch is retried. */
  METRICS_MAX_RETRY_WAIT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(15 * 60_000),
  /**
   * Metric fetches that failed transiently wait in a retry lane (in the store, not among the jobs in hand)
   * and are sent again at most this many per second by each publisher, in turn per platform and workspace:
   * retries can never take more than this from new fetches.
   */
  METRICS_RETRIES_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(20),
});

export type PublisherConfig = z.infer<typeof configSchema>;
export const loadPublisherConfig = (): PublisherConfig => loadConfig(configSchema);
