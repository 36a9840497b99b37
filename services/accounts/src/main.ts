import { createHash } from 'node:crypto';
import { runMain } from '@spa/config';
import { onShutdown, startGrpcServer, startProcessRuntime } from '@spa/grpc';
import { EventOutbox } from '@spa/events';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes, mongoDependency } from '@spa/mongo';
import { connectNats } from '@spa/nats';
import { createSecretBox } from '@spa/secret-box';
import { loadAccountsConfig, oauthClients } from './config.js';
import { argon2Hasher } from './data/argon2-hasher.js';
import { MongoConnectionStore } from './data/connection-store.js';
import { AnnouncingConnectionStore } from './events/credential-changes.js';
import { MongoDashboardStore } from './data/dashboard-store.js';
import { MongoPlatformStyleStore } from './data/platform-style-store.js';
import { MongoSiteRulesStore } from './data/site-rules-store.js';
import { MongoApiKeys } from './data/api-keys.js';
import { MongoCustomRules } from './data/custom-rules.js';
import { MongoIdSequences } from './data/ids.js';
import { registerModels } from './data/models.js';
import { MongoPostingSchedules } from './data/posting-schedules.js';
import { MongoPreferences } from './data/preferences.js';
import { MongoSites } from './data/sites.js';
import { MongoSocialAccounts } from './data/social-accounts.js';
import { MongoMemberships, MongoUsers, MongoWorkspaces } from './data/workspaces.js';
import type { ConnectDeps } from './domain/connect/deps.js';
import type { PlatformStylesDeps } from './domain/platform-styles.js';
import { startRefreshJob } from './domain/connect/refresh.js';
import { apiKeyUseRecorder } from './domain/dashboard-reads.js';
import { dashboardService } from './grpc/dashboard-handlers.js';
import { accountsService } from './grpc/handlers.js';
import { platformStylesService } from './grpc/platform-styles-handlers.js';
import { credentialAuth } from './platform-auth/credential-auth.js';
import { siteRulesService } from './grpc/site-rules-handlers.js';
import { mcpAuthorizationService } from './grpc/mcp-authorization-handlers.js';
import { MongoMcpAuthorizationStore } from './data/mcp-authorization-store.js';
import { oauthClient } from './platform-auth/oauth-client.js';

runMain(async () => {
  const config = loadAccountsConfig();
  const logger = createLogger('accounts', config.LOG_LEVEL);
  const metrics = await startProcessRuntime('accounts', config, logger);
  const [mongo, nc] = await Promise.all([connectMongo(config.MONGO_URL, config.MONGO_DB), connectNats(config.NATS_URL, 'accounts')]);
  const models = registerModels(mongo);
  // Public events of social accounts (account.*), queued before each change they announce.
  const outbox = new EventOutbox({ connection: mongo, nc, namespace: config.JOBS_NAMESPACE, logger, hold: config.EVENTS_RELAY_HOLD });
  // One repository per aggregate, all on the accounts database.
  const preferences = new MongoPreferences(models);
  const siteRules = new MongoSiteRulesStore(mongo, models.Site);
  const mcpAuthorization = new MongoMcpAuthorizationStore(mongo);
  const deps: ConnectDeps & Parameters<typeof dashboardService>[0] & PlatformStylesDeps = {
    ids: new MongoIdSequences(mongo),
    workspaces: new MongoWorkspaces(models),
    users: new MongoUsers(models),
    memberships: new MongoMemberships(models),
    apiKeys: new MongoApiKeys(models),
    sites: new MongoSites(models),
    socialAccounts: new MongoSocialAccounts(models, outbox),
    schedules: new MongoPostingSchedules(models),
    preferences,
    customRules: new MongoCustomRules(models),
    clock: { now: () => new Date() },
    secrets: createSecretBox(config.SECRETS_KEY),
    dubFallbackKey: config.DUB_API_KEY || undefined,
    dashboard: new MongoDashboardStore(mongo, models),
    passwords: argon2Hasher,
    connections: new AnnouncingConnectionStore(new MongoConnectionStore(mongo, outbox), nc, config.JOBS_NAMESPACE, logger),
    oauth: oauthClient({ sandboxUrl: config.SANDBOX_URL }),
    credentialAuth: credentialAuth({ sandboxUrl: config.SANDBOX_URL }),
    connectConfig: {
      callbackBaseUrl: config.OAUTH_CALLBACK_BASE_URL,
      clients: oauthClients(config),
      stateKey: createHash('sha256').update(`oauth-state|${config.SECRETS_KEY}`).digest(),
      refreshAheadMs: config.TOKEN_REFRESH_AHEAD_MS,
      defaultPdsUrl: config.SANDBOX_URL ? `${config.SANDBOX_URL}/bluesky` : 'https://bsky.social',
    },
    log: logger,
    styles: new MongoPlatformStyleStore(mongo),
  };
  await syncIndexes(mongo);
  await outbox.start(config.EVENTS_RELAY_INTERVAL_MS);
  const refreshJob = startRefreshJob(deps, config.TOKEN_REFRESH_INTERVAL_MS);
  const server = await startGrpcServer({
    dependencies: [mongoDependency(mongo)],
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    services: [
      accountsService(deps, { apiKeyUsed: apiKeyUseRecorder(deps, (err) => logger.warn({ err }, 'recording an API key use failed')) }),
      dashboardService(deps),
      platformStylesService(deps),
      siteRulesService({ siteRules, clock: deps.clock }),
      mcpAuthorizationService({ ...deps, mcp: mcpAuthorization }),
    ],
    logger,
  });
  logger.info({ port: server.port }, 'accounts listening');
  process.stdout.write(`READY grpc=${config.GRPC_HOST}:${server.port}\n`);
  onShutdown(logger, [
    ['grpc', () => server.shutdown()],
    ['metrics', () => metrics.close()],
    ['token refresh', () => refreshJob.stop()],
    ['event outbox', () => outbox.stop()],
    ['nats', () => nc.drain()],
    ['mongo', () => mongo.close()],
  ]);
});
