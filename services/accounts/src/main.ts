import { runMain } from '@spa/config';
import { onShutdown, startGrpcServer, startProcessRuntime } from '@spa/grpc';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes, mongoDependency } from '@spa/mongo';
import { createSecretBox } from '@spa/secret-box';
import { loadAccountsConfig } from './config.js';
import { argon2Hasher } from './data/argon2-hasher.js';
import { MongoDashboardStore } from './data/dashboard-store.js';
import { MongoAccountsStore } from './data/mongo-store.js';
import { apiKeyUseRecorder } from './domain/dashboard-reads.js';
import { dashboardService } from './grpc/dashboard-handlers.js';
import { accountsService } from './grpc/handlers.js';

runMain(async () => {
  const config = loadAccountsConfig();
  const logger = createLogger('accounts', config.LOG_LEVEL);
  const metrics = await startProcessRuntime('accounts', config, logger);
  const mongo = await connectMongo(config.MONGO_URL, config.MONGO_DB);
  const store = new MongoAccountsStore(mongo);
  const deps = {
    store,
    clock: { now: () => new Date() },
    secrets: createSecretBox(config.SECRETS_KEY),
    dashboard: new MongoDashboardStore(mongo, store.models),
    passwords: argon2Hasher,
  };
  await syncIndexes(mongo);
  const server = await startGrpcServer({
    dependencies: [mongoDependency(mongo)],
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    services: [
      accountsService(deps, { apiKeyUsed: apiKeyUseRecorder(deps, (err) => logger.warn({ err }, 'recording an API key use failed')) }),
      dashboardService(deps),
    ],
    logger,
  });
  logger.info({ port: server.port }, 'accounts listening');
  process.stdout.write(`READY grpc=${config.GRPC_HOST}:${server.port}\n`);
  onShutdown(logger, [
    ['grpc', () => server.shutdown()],
    ['metrics', () => metrics.close()],
    ['mongo', () => mongo.close()],
  ]);
});
