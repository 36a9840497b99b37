import { runMain } from '@spa/config';
import { onShutdown, startGrpcServer, startProcessRuntime } from '@spa/grpc';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes, mongoDependency } from '@spa/mongo';
import { createSecretBox } from '@spa/secret-box';
import { loadAccountsConfig } from './config.js';
import { MongoAccountsStore } from './data/mongo-store.js';
import { accountsService } from './grpc/handlers.js';

runMain(async () => {
  const config = loadAccountsConfig();
  const logger = createLogger('accounts', config.LOG_LEVEL);
  const metrics = await startProcessRuntime('accounts', config, logger);
  const mongo = await connectMongo(config.MONGO_URL, config.MONGO_DB);
  const store = new MongoAccountsStore(mongo);
  await syncIndexes(mongo);
  const server = await startGrpcServer({
    dependencies: [mongoDependency(mongo)],
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    services: [accountsService({ store, clock: { now: () => new Date() }, secrets: createSecretBox(config.SECRETS_KEY) })],
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
