import { env, loadConfig, z } from '@spa/config';

export const configSchema = z.object({
  LOG_LEVEL: env.logLevel,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().min(1).default('spa_media'),
  GRPC_HOST: env.host,
  GRPC_PORT: env.port(50055),
});

export type MediaConfig = z.infer<typeof configSchema>;
export const loadMediaConfig = (environment: NodeJS.ProcessEnv = process.env): MediaConfig => loadConfig(configSchema, environment);
