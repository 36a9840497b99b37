import { env, loadConfig, z, operationsEnv } from '@spa/config';

export const configSchema = z.object({
  LOG_LEVEL: env.logLevel,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().min(1).default('spa_accounts'),
  GRPC_HOST: env.host,
  GRPC_PORT: env.port(50051),
  ...operationsEnv(9465),
  /** Encrypts platform credentials at rest (AES-256-GCM); 32+ characters. */
  SECRETS_KEY: z.string().min(32, 'must be at least 32 characters'),
});

export type AccountsConfig = z.infer<typeof configSchema>;
export const loadAccountsConfig = (): AccountsConfig => loadConfig(configSchema);
