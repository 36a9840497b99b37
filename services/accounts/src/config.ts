import { env, eventsEnv, loadConfig, z, operationsEnv } from '@spa/config';
import { OAUTH_PLATFORMS, clientEnvNames } from '@spa/platforms';
import type { Platform } from '@spa/vocabulary';
import { DUB_API_KEY_PATTERN } from './domain/link-shortening.js';

/** OAUTH_<PLATFORM>_CLIENT_ID / _CLIENT_SECRET of every OAuth platform with a fixed client (all optional). */
const oauthClientVars = Object.fromEntries(
  Object.values(OAUTH_PLATFORMS)
    .filter((f) => !f.perInstance)
    .flatMap((f) => Object.values(clientEnvNames(f.platform)).map((name) => [name, z.string().min(1).optional()])),
) as Record<string, z.ZodOptional<z.ZodString>>;

export const configSchema = z.object({
  LOG_LEVEL: env.logLevel,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().min(1).default('spa_accounts'),
  /** Credential changes are announced here (core NATS) so publishers drop their cached credentials. */
  NATS_URL: env.natsUrl,
  /** Names this deployment's subjects (the publisher must use the same). */
  JOBS_NAMESPACE: env.namespace,
  ...eventsEnv(),
  GRPC_HOST: env.host,
  GRPC_PORT: env.port(50051),
  ...operationsEnv(9465),
  /** Encrypts platform credentials at rest (AES-256-GCM); 32+ characters. */
  SECRETS_KEY: z.string().min(32, 'must be at least 32 characters'),
  /** Public base URL of the gateway (its /oauth/{platform}/callback); without it OAuth connections are off. */
  OAUTH_CALLBACK_BASE_URL: z.url().optional(),
  /** When set, every platform's OAuth and identity endpoints are called at this loopback sandbox (`<url>/<platform>`). */
  SANDBOX_URL: z.url().optional(),
  /** How often the token refresh job looks for tokens about to expire. */
  TOKEN_REFRESH_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  /** A token is refreshed this long before it expires. */
  TOKEN_REFRESH_AHEAD_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(15 * 60_000),
  /**
   * The deployment's Dub API key (`dub_…`), a fallback for workspaces that turn link shortening on without a key of
   * their own (the analytics service asks for the key per workspace); empty: each workspace needs its own key.
   */
  DUB_API_KEY: z.union([z.literal(''), z.string().regex(DUB_API_KEY_PATTERN, 'must be a Dub API key (dub_…)')]).default(''),
  ...oauthClientVars,
});

/** The configured OAuth clients (a platform needs both its id and secret). */
export function oauthClients(config: Record<string, unknown>): Partial<Record<Platform, { id: string; secret: string }>> {
  const clients: Partial<Record<Platform, { id: string; secret: string }>> = {};
  for (const facts of Object.values(OAUTH_PLATFORMS)) {
    const names = clientEnvNames(facts.platform);
    const id = config[names.id];
    const secret = config[names.secret];
    if (typeof id === 'string' && typeof secret === 'string') clients[facts.platform] = { id, secret };
  }
  return clients;
}

export type AccountsConfig = z.infer<typeof configSchema>;
export const loadAccountsConfig = (): AccountsConfig => loadConfig(configSchema);
