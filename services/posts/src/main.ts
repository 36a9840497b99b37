import { runMain } from '@spa/config';
import { onShutdown, startGrpcServer, startProcessRuntime } from '@spa/grpc';
import { EventOutbox } from '@spa/events';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes, mongoDependency } from '@spa/mongo';
import { connectNats, natsDependency } from '@spa/nats';
import { loadPostsConfig } from './config.js';
import { connectRedis, ListVersions, postListVersionPrefix } from '@spa/redis';
import { CachedPostsStore } from './data/cached-store.js';
import { MongoPostsStore } from './data/mongo-store.js';
import { publishJobs } from './events/publish-jobs.js';
import { consumeMetricSnapshots } from './events/metric-snapshots.js';
import { EventRelay } from './events/relay.js';
import { startScheduler } from './events/scheduler.js';
import { startRecycler } from './events/recycler.js';
import { MongoRecycleStore } from './data/recycle-store.js';
import { accountsPort } from './grpc/accounts-client.js';
import { generationPort } from './grpc/generation-client.js';
import { postsService } from './grpc/handlers.js';
import { MongoSitePushStore } from './data/site-push-store.js';
import { startSitePushSweeper } from './events/site-push-sweeper.js';
import { sitePushesService } from './grpc/site-pushes-handlers.js';
import { sitesPort, writerPort } from './grpc/site-push-clients.js';

runMain(async () => {
  const config = loadPostsConfig();
  const logger = createLogger('posts', config.LOG_LEVEL);
  const metrics = await startProcessRuntime('posts', config, logger);
  const [mongo, nc] = await Promise.all([connectMongo(config.MONGO_URL, config.MONGO_DB), connectNats(config.NATS_URL, 'posts')]);
  const mongoStore = new MongoPostsStore(mongo);
  const recycles = new MongoRecycleStore(mongo);
  // Public events of the posts service beside its own outbox's: site_push.consumed.
  const outbox = new EventOutbox({ connection: mongo, nc, namespace: config.JOBS_NAMESPACE, logger, hold: config.EVENTS_RELAY_HOLD });
  const sitePushes = new MongoSitePushStore(mongo, outbox);
  await syncIndexes(mongo);
  const backfilled = await mongoStore.dispatches.backfillDueSeconds();
  if (backfilled) logger.info({ posts: backfilled }, 'scheduled posts given their due second');
  const redis = await connectRedis(config.REDIS_URL, logger, 'post list cache bypassed');
  const versions = new ListVersions(redis, config.POSTS_LIST_VERSION_PREFIX ?? postListVersionPrefix(config.MONGO_DB));
  const store = new CachedPostsStore(mongoStore, versions, logger, { pages: config.POSTS_LIST_CACHE });
  const relay = new EventRelay({
    models: mongoStore.models,
    listIndex: mongoStore.listIndex,
    landed: mongoStore.landed,
    deployment: config.JOBS_NAMESPACE,
    hold: config.EVENTS_RELAY_HOLD,
    nc,
    logger,
    onListRepaired: async (workspaceId) => store.bump(workspaceId),
  });
  await relay.start(config.EVENT_RELAY_INTERVAL_MS);
  await outbox.start(config.EVENTS_RELAY_INTERVAL_MS);
  const accounts = accountsPort(config.ACCOUNTS_ADDR);
  const deps = { store, accounts, clock: { now: () => new Date() }, flushEvents: () => relay.flush(), jobs: await publishJobs(nc, config.JOBS_NAMESPACE) };
  const scheduler = startScheduler(deps, logger, config.SCHEDULER_INTERVAL_MS, config.SCHEDULER_FULL_SCAN_INTERVAL_MS);
  const [sites, writer] = [sitesPort(config.ACCOUNTS_ADDR), writerPort(config.GENERATION_ADDR, config.GENERATION_DEADLINE_MS)];
  const siteDeps = {
    ...deps,
    sites,
    writer,
    sitePushes,
    leaseMs: config.SITE_PUSH_LEASE_MS,
    onBackgroundError: (err: unknown, key: string) => logger.warn({ err, sitePush: key }, 'site push: making drafts failed; the sweeper retries'),
  };
  const sitePushSweeper = startSitePushSweeper(siteDeps, logger, config.SITE_PUSH_SWEEP_INTERVAL_MS);
  const metricSnapshots = await consumeMetricSnapshots(nc, store, logger, config.JOBS_NAMESPACE);
  const generation = generationPort(config.GENERATION_ADDR, config.GENERATION_DEADLINE_MS);
  const recycler = config.RECYCLER_ENABLED
    ? await startRecycler(nc, { ...deps, recycles, generation, random: Math.random, logger }, config.JOBS_NAMESPACE, config.RECYCLE_ACK_WAIT_MS)
    : { stop: async () => undefined };
  const server = await startGrpcServer({
    dependencies: [mongoDependency(mongo), natsDependency(nc)],
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    services: [postsService(deps), sitePushesService(siteDeps)],
    logger,
  });
  logger.info({ port: server.port }, 'posts listening');
  process.stdout.write(`READY grpc=${config.GRPC_HOST}:${server.port}\n`);
  onShutdown(logger, [
    ['grpc', () => server.shutdown()],
    ['metrics', () => metrics.close()],
    ['scheduler', () => scheduler.stop()],
    ['site push sweeper', () => sitePushSweeper.stop()],
    ['metric snapshots', () => metricSnapshots.stop()],
    ['recycler', () => recycler.stop()],
    ['events', () => relay.stop()],
    ['event outbox', () => outbox.stop()],
    ['nats', () => nc.drain()],
    ['accounts client', async () => accounts.close()],
    ['generation client', async () => generation.close()],
    ['site push clients', async () => (sites.close(), writer.close())],
    ['redis', () => redis.quit()],
    ['mongo', () => mongo.close()],
  ]);
});
