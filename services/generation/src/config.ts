import { env, loadConfig, z } from '@spa/config';

export const configSchema = z.object({
  LOG_LEVEL: env.logLevel,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().min(1).default('spa_generation'),
  NATS_URL: env.natsUrl,
  GRPC_HOST: env.host,
  GRPC_PORT: env.port(50054),
  ACCOUNTS_ADDR: env.address('127.0.0.1:50051'),
  POSTS_ADDR: env.address('127.0.0.1:50052'),
  MEDIA_ADDR: env.address('127.0.0.1:50055'),
  GRPC_DEADLINE_MS: env.millis(10_000),
  /**
   * An OpenAI-compatible chat API (OpenAI, Azure OpenAI, OpenRouter, vLLM, Ollama, llama.cpp server).
   * Unset: only the built-in offline composer is available (and is the default model).
   */
  AI_BASE_URL: z.url().optional(),
  AI_API_KEY: z.string().optional(),
  /** Models of that API, comma-separated `id[:label[:premium[:typical_cost_micros]]]`; the first is the default. */
  AI_MODELS: z.string().default(''),
  /** How long one model may take before the next model in line is tried. */
  AI_TIMEOUT_MS: env.millis(20_000),
});

export type GenerationConfig = z.infer<typeof configSchema>;
export const loadGenerationConfig = (environment: NodeJS.ProcessEnv = process.env): GenerationConfig => loadConfig(configSchema, environment);
