import { env, loadConfig, z, operationsEnv } from '@spa/config';
import { parseOffsets } from './domain/schedule.js';

const offsets = z.string().transform((value, ctx) => {
  try {
    return parseOffsets(value);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
});

export const configSchema = z.object({
  LOG_LEVEL: env.logLevel,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().min(1).default('spa_analytics'),
  NATS_URL: env.natsUrl,
  GRPC_HOST: env.host,
  GRPC_PORT: env.port(50058),
  ...operationsEnv(9472),
  ACCOUNTS_ADDR: env.address('127.0.0.1:50051'),
  POSTS_ADDR: env.address('127.0.0.1:50052'),
  /** Names this deployment's metric jobs and events (the publisher and posts must use the same). */
  JOBS_NAMESPACE: env.namespace,
  /** When each metric fetch of a posted target is due, after posting (units s, m, h, d), ascending. */
  METRICS_FETCH_OFFSETS: offsets.default(parseOffsets('1h,6h,24h,72h,7d,14d,21d,28d')),
  /** Each fetch is spread later by up to this fraction of its offset (capped by METRICS_FETCH_MAX_JITTER_MS), so a wave does not burst. */
  METRICS_FETCH_JITTER: z.coerce.number().min(0).max(1).default(0.1),
  METRICS_FETCH_MAX_JITTER_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(15 * 60_000),
  /** Width of a schedule slot (fetches are found by slot, one equality query each). */
  METRICS_SLOT_MS: z.coerce.number().int().min(100).default(60_000),
  /** How often the schedule is walked. */
  METRICS_DISPATCH_INTERVAL_MS: env.millis(10_000),
  /** A result not acknowledged within this time (its analytics replica died) is delivered again. */
  METRICS_RESULT_ACK_WAIT_MS: z.coerce.number().int().min(1_000).default(30_000),
  /** Posts a best-time cell needs before its mean is given. */
  BEST_TIMES_MIN_SAMPLES: z.coerce.number().int().min(1).default(3),
  /**
   * Each workspace turns link shortening on in its preferences, with a Dub key of its own (kept encrypted by accounts)
   * or the deployment's fallback (accounts' DUB_API_KEY); analytics asks accounts (GetLinkShortening) and keeps the
   * answer this long, so a changed preference applies within it.
   */
  LINK_SETTINGS_TTL_MS: env.millis(30_000),
  /** Dub's API (the sandbox serves a stand-in under `/dub`). */
  DUB_BASE_URL: z.url().default('https://api.dub.co'),
  DUB_TIMEOUT_MS: env.millis(10_000),
});

export type AnalyticsConfig = z.infer<typeof configSchema>;
export const loadAnalyticsConfig = (): AnalyticsConfig => loadConfig(configSchema);
