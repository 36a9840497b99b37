import { env, loadConfig, z, operationsEnv } from '@spa/config';
import { parseDailyLimits } from './domain/quota/limits.js';

export const configSchema = z.object({
  LOG_LEVEL: env.logLevel,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().min(1).default('spa_generation'),
  GRPC_HOST: env.host,
  GRPC_PORT: env.port(50054),
  ...operationsEnv(9468),
  ACCOUNTS_ADDR: env.address('127.0.0.1:50051'),
  POSTS_ADDR: env.address('127.0.0.1:50052'),
  MEDIA_ADDR: env.address('127.0.0.1:50055'),
  /** The image-week service: content plans' quote_card channels start Quote Week runs there. */
  IMAGE_WEEK_ADDR: env.address('127.0.0.1:50059'),
  GRPC_DEADLINE_MS: env.millis(10_000),
  /**
   * An OpenAI-compatible chat API (OpenAI, Azure OpenAI, OpenRouter, vLLM, Ollama, llama.cpp server).
   * Unset: only the built-in offline composer is available (and is the default model).
   */
  AI_BASE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
  AI_API_KEY: z.string().optional(),
  /** Models of that API, comma-separated `id[:label[:premium[:typical_cost_micros]]]`; the first is the default. */
  AI_MODELS: z.string().default(''),
  /** How long one model may take before the next model in line is tried. */
  AI_TIMEOUT_MS: env.millis(20_000),
  /**
   * Whether the built-in composer is the last resort after the configured models fail. Off: a request
   * whose configured models all fail ends in GENERATION_FAILED (the composer stays selectable as ai_model).
   */
  AI_FALLBACK_BUILTIN: env.bool(true),
  /** How long one generate request may spend on remote models in all; what is left then goes to the composer. */
  GENERATION_BUDGET_MS: env.millis(60_000),
  /** A cached voice profile older than this is learned again from the workspace's posts. */
  VOICE_PROFILE_MAX_AGE_MS: env.millis(10 * 60_000),
  /**
   * Operator override of the daily AI generation limits per plan (plans in docs/architecture.md: starter 100, pro 500,
   * team 2000), `tier:limit[,tier:limit…]`, e.g. `starter:3,pro:5`; tiers not named keep their default.
   */
  DAILY_GENERATION_LIMITS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      try {
        return parseDailyLimits(value);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  /** How often each replica looks for due content plans and for runs whose owner died. */
  PLANS_POLL_INTERVAL_MS: env.millis(5_000),
  /** How long a plan run's owner holds it without renewing (renewed every third of it); then another replica resumes it. */
  PLANS_RUN_LEASE_MS: env.millis(60_000),
});

export type GenerationConfig = z.infer<typeof configSchema>;
export const loadGenerationConfig = (environment: NodeJS.ProcessEnv = process.env): GenerationConfig => loadConfig(configSchema, environment);
