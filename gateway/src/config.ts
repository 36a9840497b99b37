import { env, loadConfig, operationsEnv, z } from '@spa/config';
import { postListVersionPrefix } from '@spa/redis';

export const configSchema = z.object({
  LOG_LEVEL: env.logLevel,
  HTTP_HOST: env.host,
  HTTP_PORT: env.port(8080),
  ...operationsEnv(9464),
  REDIS_URL: env.redisUrl,
  ACCOUNTS_ADDR: env.address('127.0.0.1:50051'),
  POSTS_ADDR: env.address('127.0.0.1:50052'),
  GENERATION_ADDR: env.address('127.0.0.1:50054'),
  MEDIA_ADDR: env.address('127.0.0.1:50055'),
  /** The publisher: account lookups on the platforms (TikTok creator info) go through its connectors. */
  PUBLISHER_ADDR: env.address('127.0.0.1:50053'),
  IMAGE_WEEK_ADDR: env.address('127.0.0.1:50059'),
  /** The media service's HTTP server: /media/<r2_key> (reads, presigned PUTs) is relayed to it, streaming. */
  MEDIA_HTTP_URL: z.url().default('http://127.0.0.1:8095'),
  /** Deadline of one base64 upload's stream to the media service (large videos take a while). */
  GRPC_UPLOAD_DEADLINE_MS: env.millis(30 * 60_000),
  /** Proxy hops to trust for the client IP (X-Forwarded-For); 0 when the gateway faces clients directly. */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** How long an authentication result is reused; at most 5 s so that a revoked key stops within 5 s. */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(5_000).default(3_000),
  /** Redis key prefix of the rate limiters and idempotency keys; gateways sharing limits share the prefix. */
  RATE_LIMIT_PREFIX: z.string().min(1).default('spa'),
  GRPC_DEADLINE_MS: env.millis(5_000),
  /** Keep GET /posts answers, served again while the workspace's post-list version in Redis is unchanged. */
  GATEWAY_ANSWER_CACHE: env.bool(true),
  /** The posts service's POSTS_LIST_VERSION_PREFIX (default there: `<its MONGO_DB>:posts:version`): must be the same. */
  POSTS_LIST_VERSION_PREFIX: z.string().min(1).default(postListVersionPrefix('spa_posts')),
  /** Deadline of generation calls: the service may try several models in turn (its own budget is 60 s). */
  GENERATION_DEADLINE_MS: env.millis(90_000),
  /** The webhooks service (the dashboard's webhook pages, and the event log: GET /events). */
  WEBHOOKS_ADDR: env.address('127.0.0.1:50057'),
  /** Dashboard sessions: ended after this long unused, and this long after sign-in whatever happens. */
  DASHBOARD_SESSION_IDLE_SEC: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(12 * 3600),
  DASHBOARD_SESSION_MAX_SEC: z.coerce
    .number()
    .int()
    .min(60)
    .max(90 * 86_400)
    .default(14 * 86_400),
  /** Members may connect sandbox social accounts (they publish to the platform sandbox, never a real network). */
  DASHBOARD_SANDBOX_ACCOUNTS: env.bool(true),
  /** The built web app (dashboard/dist) to serve at /dashboard; default: the one beside the gateway. */
  DASHBOARD_BUNDLE_DIR: z.string().min(1).optional(),
  ANALYTICS_ADDR: env.address('127.0.0.1:50058'),
  /** Files fetched from URLs users give (media from a URL): the whole fetch, body included, within this long. */
  WEB_FETCH_TIMEOUT_MS: env.millis(30_000),
  /** Allows plain http and private, loopback and link-local addresses for those fetches (local development and tests only). */
  WEB_FETCH_ALLOW_PRIVATE: env.bool(false),
});

export type GatewayConfig = z.infer<typeof configSchema>;
export const loadGatewayConfig = (environment: NodeJS.ProcessEnv = process.env): GatewayConfig => loadConfig(configSchema, environment);
