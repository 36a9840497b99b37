import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { PlatformStylesServiceClient } from '@spa/contracts/accounts/v1/platform_styles';
import { ImageWeekServiceClient } from '@spa/contracts/image_week/v1/image_week';
import { MediaServiceClient } from '@spa/contracts/media/v1/media';
import { PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import { runMain } from '@spa/config';
import { createClient, onShutdown, startGrpcServer, startProcessRuntime } from '@spa/grpc';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes, mongoDependency } from '@spa/mongo';
import { loadGenerationConfig } from './config.js';
import { compose } from './compose.js';

runMain(async () => {
  const config = loadGenerationConfig();
  const logger = createLogger('generation', config.LOG_LEVEL);
  const metrics = await startProcessRuntime('generation', config, logger);
  const mongo = await connectMongo(config.MONGO_URL, config.MONGO_DB);
  const clientDefaults = { deadlineMs: config.GRPC_DEADLINE_MS };
  const accounts = createClient(AccountsServiceClient, config.ACCOUNTS_ADDR, clientDefaults);
  const platformStyles = createClient(PlatformStylesServiceClient, config.ACCOUNTS_ADDR, clientDefaults);
  const posts = createClient(PostsServiceClient, config.POSTS_ADDR, clientDefaults);
  const media = createClient(MediaServiceClient, config.MEDIA_ADDR, clientDefaults);
  const imageWeek = createClient(ImageWeekServiceClient, config.IMAGE_WEEK_ADDR, clientDefaults);

  const { catalog, services, ...plans } = compose(config, mongo, { accounts, platformStyles, posts, media, imageWeek }, logger);
  await syncIndexes(mongo);

  const server = await startGrpcServer({
    dependencies: [mongoDependency(mongo)],
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    services,
    logger,
  });
  plans.start();
  logger.info({ port: server.port, models: catalog.list().map((m) => m.id), defaultModel: catalog.defaultModel().id }, 'generation listening');
  process.stdout.write(`READY grpc=${config.GRPC_HOST}:${server.port}\n`);
  onShutdown(logger, [
    ['grpc', () => server.shutdown()],
    ['metrics', () => metrics.close()],
    ['plans', () => plans.stop()],
    ['clients', async () => [accounts, platformStyles, posts, media, imageWeek].forEach((c) => c.close())],
    ['mongo', () => mongo.close()],
  ]);
});
