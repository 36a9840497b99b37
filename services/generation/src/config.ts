import { env, loadConfig, z } from '@spa/config';

export const configSchema = z.object({
  LOG_LEVEL: env.logLevel,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().min(1).default('spa_generation'),
  GRPC_HOST: env.host,
  GRPC_PORT: env.port(50054),
});

export type GenerationConfig = z.infer<typeof configSchema>;
export const loadGenerationConfig = (environment: NodeJS.ProcessEnv = process.env): GenerationConfig => loadConfig(configSchema, environment);
