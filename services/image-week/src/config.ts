import { env, eventsEnv, loadConfig, z, operationsEnv } from '@spa/config';
import { TEMPLATE_SETS } from './render/templates.js';

export const configSchema = z.object({
  LOG_LEVEL: env.logLevel,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().min(1).default('spa_image_week'),
  NATS_URL: env.natsUrl,
  GRPC_HOST: env.host,
  GRPC_PORT: env.port(50059),
  ...operationsEnv(9471),
  ACCOUNTS_ADDR: env.address('127.0.0.1:50051'),
  POSTS_ADDR: env.address('127.0.0.1:50052'),
  GENERATION_ADDR: env.address('127.0.0.1:50054'),
  MEDIA_ADDR: env.address('127.0.0.1:50055'),
  GRPC_DEADLINE_MS: env.millis(10_000),
  /** Deadline of quote generation calls (a batch of up to 20 texts may try several models). */
  GENERATION_DEADLINE_MS: env.millis(90_000),
  /** Names this deployment's Quote Week jobs (replicas of one deployment share it). */
  JOBS_NAMESPACE: env.namespace,
  ...eventsEnv(),
  /** Jobs one replica works on at once (rendering and OCR are CPU-bound). */
  IMAGE_WEEK_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(3),
  /** Tesseract workers of the built-in reader (each reads one card at a time); default: one per core, at most 2. */
  IMAGE_WEEK_OCR_WORKERS: z.coerce.number().int().min(1).max(8).optional(),
  /** Starts the OCR workers at start, so the first card does not wait for them (seconds of CPU); false: at the first card. */
  IMAGE_WEEK_OCR_WARM: env.bool(true),
  /** A job not confirmed in progress for this long goes to another replica. */
  IMAGE_WEEK_JOB_ACK_WAIT_MS: env.millis(30_000),
  /** How long a worker's claim on an item (and a run's render slot) lasts without renewal. */
  IMAGE_WEEK_LEASE_MS: env.millis(30_000),
  /** Runs of one workspace rendering at once. */
  IMAGE_WEEK_RENDERS_PER_WORKSPACE: z.coerce.number().int().min(1).max(10).default(2),
  /** Renders per item before it fails. */
  IMAGE_WEEK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  /** How often stale work is looked for, and how old it must be. */
  IMAGE_WEEK_SWEEP_INTERVAL_MS: env.millis(15_000),
  IMAGE_WEEK_STALE_MS: env.millis(60_000),
  /** The card template set; `test-unreadable` is for tests only (its text never reads back). */
  IMAGE_WEEK_TEMPLATE_SET: z.enum(Object.keys(TEMPLATE_SETS) as [string, ...string[]]).default('quote-cards-v1'),
  /** An OpenAI-compatible API with a vision model reads the cards back when set (else the built-in OCR). */
  VISION_BASE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
  VISION_API_KEY: z.string().default(''),
  VISION_MODEL: z.string().default('gpt-4o-mini'),
  VISION_TIMEOUT_MS: env.millis(20_000),
  /** Price of one vision read in cents (reported as est_cost_cents). */
  VISION_COST_CENTS: z.coerce.number().int().min(0).default(1),
});

export type ImageWeekConfig = z.infer<typeof configSchema>;
export const loadImageWeekConfig = (): ImageWeekConfig => loadConfig(configSchema);
