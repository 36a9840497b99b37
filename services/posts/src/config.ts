import { env, eventsEnv, loadConfig, z, operationsEnv } from '@spa/config';
import { FULL_SCAN_INTERVAL_MS } from './domain/publishing.js';

export const configSchema = z.object({
  LOG_LEVEL: env.logLevel,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().min(1).default('spa_posts'),
  NATS_URL: env.natsUrl,
  REDIS_URL: env.redisUrl,
  /** Serve repeated GET /posts pages from memory, invalidated through a per-workspace version in Redis. */
  POSTS_LIST_CACHE: env.bool(true),
  /**
   * Redis key prefix of the per-workspace list versions, moved on after every write (whatever POSTS_LIST_CACHE
   * says: the gateway's answer cache reads them too, under its own POSTS_LIST_VERSION_PREFIX, which must be the
   * same). Default `<MONGO_DB>:posts:version`, so deployments sharing a Redis never share versions.
   */
  POSTS_LIST_VERSION_PREFIX: z.string().min(1).optional(),
  GRPC_HOST: env.host,
  GRPC_PORT: env.port(50052),
  ...operationsEnv(9466),
  ACCOUNTS_ADDR: env.address('127.0.0.1:50051'),
  /** The generation service: posts written from pushed articles, fresh wordings of evergreen posts. */
  GENERATION_ADDR: env.address('127.0.0.1:50054'),
  /** Deadline of one Generate call (a model may be slow; the generation service falls back between models). */
  GENERATION_DEADLINE_MS: env.millis(90_000),
  /** Recycle evergreen posts once posted (consumes posts.post.terminal). Off only for a replica that must not. */
  RECYCLER_ENABLED: env.bool(true),
  /** How long a recycle may run before JetStream offers its posting to another replica. */
  RECYCLE_ACK_WAIT_MS: env.millis(300_000),
  /** How long a worker holds a pushed article's draft making before another may take it over. */
  SITE_PUSH_LEASE_MS: env.millis(60_000),
  /** How often pushes whose drafts were left unmade (crash, failure) are looked for. */
  SITE_PUSH_SWEEP_INTERVAL_MS: env.millis(10_000),
  EVENT_RELAY_INTERVAL_MS: env.millis(5_000),
  /** How often the scheduler looks for due posts. */
  SCHEDULER_INTERVAL_MS: env.millis(1_000),
  /** How often a scheduler pass reads every due post; the others read those due since the last pass (DueScan). */
  SCHEDULER_FULL_SCAN_INTERVAL_MS: env.millis(FULL_SCAN_INTERVAL_MS),
  /** Names this deployment's publish jobs and, in the spa-deployment header, its posts events (the publisher and analytics must use the same). */
  JOBS_NAMESPACE: env.namespace,
  ...eventsEnv(),
});

export type PostsConfig = z.infer<typeof configSchema>;
export const loadPostsConfig = (): PostsConfig => loadConfig(configSchema);
