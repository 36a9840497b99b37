import { runMain } from '@spa/config';
import { onShutdown, startGrpcServer } from '@spa/grpc';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes } from '@spa/mongo';
import { createSecretBox } from '@spa/secret-box';
import { createHash } from 'node:crypto';
import { loadAccountsConfig, oauthClients } from './config.js';
import { MongoConnectionStore } from './data/connection-store.js';
import { MongoAccountsStore } from './data/mongo-store.js';
import type { ConnectDeps } from './domain/connect/deps.js';
import { startRefreshJob } from './domain/connect/refresh.js';
import { oauthClient } from './platform-auth/oauth-client.js';
import { accountsService } from './grpc/handlers.js';

runMain(async () => {
  const config = loadAccountsConfig();
  const logger = createLogger('accounts', config.LOG_LEVEL);
  const mongo = await connectMongo(config.MONGO_URL, config.MONGO_DB);
  const store = new MongoAccountsStore(mongo);
  const connections = new MongoConnectionStore(mongo);
  await syncIndexes(mongo);
  const deps: ConnectDeps = {
    store,
    clock: { now: () => new Date() },
    secrets: createSecretBox(config.SECRETS_KEY),
    connections,
    oauth: oauthClient({ sandboxUrl: config.SANDBOX_URL }),
    connectConfig: {
      callbackBaseUrl: config.OAUTH_CALLBACK_BASE_URL,
      clients: oauthClients(config),
      stateKey: createHash('sha256').update(`oauth-state|${config.SECRETS_KEY}`).digest(),
      refreshAheadMs: config.TOKEN_REFRESH_AHEAD_MS,
    },
    log: logger,
  };
  const refreshJob = startRefreshJob(deps, config.TOKEN_REFRESH_INTERVAL_MS);
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    services: [accountsService(deps)],
    logger,
  });
  logger.info({ port: server.port }, 'accounts listening');
  process.stdout.write(`READY grpc=${config.GRPC_HOST}:${server.port}\n`);
  onShutdown(logger, [
    ['grpc', () => server.shutdown()],
    ['token refresh', () => refreshJob.stop()],
    ['mongo', () => mongo.close()],
  ]);
});
