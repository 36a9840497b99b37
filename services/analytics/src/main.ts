import { runMain } from '@spa/config';
import { onShutdown, startGrpcServer, startProcessRuntime } from '@spa/grpc';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes, mongoDependency } from '@spa/mongo';
import { connectNats, natsDependency } from '@spa/nats';
import { loadAnalyticsConfig } from './config.js';
import { MongoAnalyticsStore } from './data/mongo-store.js';
import { MongoShortLinks } from './data/short-links.js';
import type { AnalyticsDeps } from './domain/ports.js';
import { workspaceShortLinks } from './dub/client.js';
import { startDispatcher } from './events/dispatcher.js';
import { jetStreamMessaging } from './events/messaging.js';
import { consumeResults } from './events/result-consumer.js';
import { consumePostTerminal } from './events/terminal-consumer.js';
import { accountsPort, postsPort } from './grpc/clients.js';
import { analyticsService } from './grpc/handlers.js';

runMain(async () => {
  const config = loadAnalyticsConfig();
  const logger = createLogger('analytics', config.LOG_LEVEL);
  const metrics = await startProcessRuntime('analytics', config, logger);
  const [mongo, nc] = await Promise.all([connectMongo(config.MONGO_URL, config.MONGO_DB), connectNats(config.NATS_URL, 'analytics')]);
  const store = new MongoAnalyticsStore(mongo);
  await syncIndexes(mongo);
  const accounts = accountsPort(config.ACCOUNTS_ADDR, config.LINK_SETTINGS_TTL_MS);
  const posts = postsPort(config.POSTS_ADDR);
  const links = workspaceShortLinks(new MongoShortLinks(store.models), accounts, { baseUrl: config.DUB_BASE_URL, timeoutMs: config.DUB_TIMEOUT_MS });
  const deps: AnalyticsDeps = {
    store,
    accounts,
    posts,
    messaging: await jetStreamMessaging(nc, config.JOBS_NAMESPACE),
    clock: { now: () => new Date() },
    links,
    onLinkError: (err) => logger.warn({ err }, 'Dub clicks could not be read; the clicks known are kept'),
  };
  const tracking = {
    offsetsMs: config.METRICS_FETCH_OFFSETS,
    jitterFraction: config.METRICS_FETCH_JITTER,
    maxJitterMs: config.METRICS_FETCH_MAX_JITTER_MS,
    slotMs: config.METRICS_SLOT_MS,
    sendAheadMs: 2 * config.METRICS_DISPATCH_INTERVAL_MS,
  };
  const terminal = await consumePostTerminal(nc, deps, tracking, logger, config.JOBS_NAMESPACE);
  const results = await consumeResults(nc, deps, logger, config.JOBS_NAMESPACE, config.METRICS_RESULT_ACK_WAIT_MS);
  const dispatcher = startDispatcher(deps, config.METRICS_SLOT_MS, config.METRICS_DISPATCH_INTERVAL_MS, logger);
  const server = await startGrpcServer({
    dependencies: [mongoDependency(mongo), natsDependency(nc)],
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    services: [analyticsService(deps, { bestTimesMinSamples: config.BEST_TIMES_MIN_SAMPLES })],
    logger,
  });
  logger.info({ port: server.port, dub: config.DUB_BASE_URL }, 'analytics listening');
  process.stdout.write(`READY grpc=${config.GRPC_HOST}:${server.port}\n`);
  onShutdown(logger, [
    ['grpc', () => server.shutdown()],
    ['metrics', () => metrics.close()],
    ['dispatcher', () => dispatcher.stop()],
    ['post events', () => terminal.stop()],
    ['results', () => results.stop()],
    ['nats', () => nc.drain()],
    ['clients', async () => (accounts.close(), posts.close())],
    ['mongo', () => mongo.close()],
  ]);
});
