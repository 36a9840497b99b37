import { runMain } from '@spa/config';
import { onShutdown, startGrpcServer } from '@spa/grpc';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes } from '@spa/mongo';
import { loadGenerationConfig } from './config.js';

runMain(async () => {
  const config = loadGenerationConfig();
  const logger = createLogger('generation', config.LOG_LEVEL);
  const mongo = await connectMongo(config.MONGO_URL, config.MONGO_DB);
  await syncIndexes(mongo);
  const server = await startGrpcServer({ host: config.GRPC_HOST, port: config.GRPC_PORT, services: [], logger });
  logger.info({ port: server.port }, 'generation listening');
  process.stdout.write(`READY grpc=${config.GRPC_HOST}:${server.port}\n`);
  onShutdown(logger, [
    ['grpc', () => server.shutdown()],
    ['mongo', () => mongo.close()],
  ]);
});
