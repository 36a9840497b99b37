import { runMain } from '@spa/config';
import { publishMetrics } from './jobs/publish-metrics.js';
import { traced } from './connectors/traced.js';
import { onShutdown, startGrpcServer, startProcessRuntime } from '@spa/grpc';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes, mongoDependency } from '@spa/mongo';
import { connectNats, natsDependency } from '@spa/nats';
import { PLATFORMS } from '@spa/vocabulary';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadPublisherConfig } from './config.js';
import { linkedinConnector } from './connectors/linkedin.js';
import { linkedinUploads } from './connectors/linkedin-uploads.js';
import { connectors, sandboxBaseUrls } from './connectors/registry.js';
import { discordConnector } from './connectors/discord.js';
import { pinterestConnector } from './connectors/pinterest.js';
import { slackConnector } from './connectors/slack.js';
import { telegramConnector } from './connectors/telegram.js';
import { tiktokConnector } from './connectors/tiktok.js';
import { MongoAttemptStore } from './data/attempt-store.js';
import { MongoMetricRetryStore } from './data/metric-retry-store.js';
import { accountsPort, mediaPort, postsPort } from './grpc/clients.js';
import { CachedAccounts } from './grpc/cached-accounts.js';
import { forgetChangedCredentials } from './jobs/credential-changes.js';
import { linksPort } from './grpc/links-client.js';
import { linkedInAssetRecords } from './grpc/linkedin-assets.js';
import { publisherService } from './grpc/publisher-service.js';
import { refreshPort } from './grpc/refresh-client.js';
import { withRefreshOn401 } from './connectors/refresh-on-401.js';
import { consumePublishJobs } from './jobs/consumer.js';
import { consumeMetricJobs } from './metrics/consumer.js';

runMain(async () => {
  const config = loadPublisherConfig();
  const logger = createLogger('publisher', config.LOG_LEVEL);
  const metrics = await startProcessRuntime('publisher', config, logger);
  const [mongo, nc] = await Promise.all([connectMongo(config.MONGO_URL, config.MONGO_DB), connectNats(config.NATS_URL, 'publisher')]);
  const attempts = new MongoAttemptStore(mongo);
  const metricRetries = new MongoMetricRetryStore(mongo);
  await syncIndexes(mongo);
  const posts = postsPort(config.POSTS_ADDR, config.MEDIA_BASE_URL);
  const accountsClient = accountsPort(config.ACCOUNTS_ADDR);
  const accounts = new CachedAccounts(accountsClient, config.PUBLISHER_CREDENTIALS_TTL_MS);
  const credentialChanges = forgetChangedCredentials(nc, config.JOBS_NAMESPACE, accounts, logger);
  const baseUrls = config.SANDBOX_URL ? sandboxBaseUrls(config.SANDBOX_URL, PLATFORMS) : {};
  const assetRecords = linkedInAssetRecords(config.MEDIA_ADDR);
  const tokens = refreshPort(config.ACCOUNTS_ADDR);
  // Credentials replaced after a 401 are never used again from the cache: the next job asks accounts.
  const refresh: typeof tokens.refresh = (socialAccountId, refused) => tokens.refresh(socialAccountId, refused).finally(() => accounts.forget(socialAccountId));
  const links = config.ANALYTICS_ADDR ? linksPort(config.ANALYTICS_ADDR) : undefined;
  const media = mediaPort(config.MEDIA_ADDR, config.MEDIA_BASE_URL);
  const deps = {
    observer: publishMetrics,
    posts,
    accounts,
    links,
    attempts,
    media,
    connectors: traced(withRefreshOn401({ ...connectors(baseUrls), linkedin: linkedinConnector(baseUrls.linkedin, assetRecords) }, refresh)),
    clock: { now: () => new Date() },
    sleep: (ms: number) => sleep(ms).then(() => undefined),
    maxAttempts: config.PUBLISH_MAX_ATTEMPTS,
    attemptLeaseMs: config.PUBLISH_ATTEMPT_LEASE_MS,
  };
  const consumer = await consumePublishJobs(nc, deps, logger, {
    namespace: config.JOBS_NAMESPACE,
    concurrency: config.PUBLISHER_CONCURRENCY,
    ackWaitMs: config.PUBLISH_JOB_ACK_WAIT_MS,
    mediaBaseUrl: config.MEDIA_BASE_URL,
  });
  const metricJobs = await consumeMetricJobs(nc, deps, metricRetries, logger, {
    namespace: config.JOBS_NAMESPACE,
    concurrency: config.METRICS_CONCURRENCY,
    ackWaitMs: config.METRICS_JOB_ACK_WAIT_MS,
    maxDeliveries: config.METRICS_MAX_DELIVERIES,
    maxRetryWaitMs: config.METRICS_MAX_RETRY_WAIT_MS,
    retriesPerSecond: config.METRICS_RETRIES_PER_SECOND,
  });
  const services = [
    publisherService({
      accounts,
      uploads: linkedinUploads(baseUrls.linkedin),
      tiktok: tiktokConnector(baseUrls.tiktok),
      pinterest: pinterestConnector(baseUrls.pinterest),
      communities: { discord: discordConnector(baseUrls.discord), slack: slackConnector(baseUrls.slack), telegram: telegramConnector(baseUrls.telegram) },
    }),
  ];
  const server = await startGrpcServer({
    dependencies: [mongoDependency(mongo), natsDependency(nc)],
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    services,
    logger,
  });
  logger.info({ port: server.port, sandbox: config.SANDBOX_URL ?? null }, 'publisher consuming jobs');
  process.stdout.write(`READY grpc=${config.GRPC_HOST}:${server.port}\n`);
  onShutdown(logger, [
    ['grpc', () => server.shutdown()],
    ['metrics', () => metrics.close()],
    ['jobs', () => consumer.stop()],
    ['credential changes', () => credentialChanges.stop()],
    ['metric jobs', () => metricJobs.stop()],
    ['nats', () => nc.drain()],
    ['clients', async () => (posts.close(), accountsClient.close(), assetRecords.close(), media.close(), tokens.close(), links?.close())],
    ['mongo', () => mongo.close()],
  ]);
});
