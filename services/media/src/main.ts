import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { runMain } from '@spa/config';
import { onShutdown, startGrpcServer, startProcessRuntime } from '@spa/grpc';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes, mongoDependency } from '@spa/mongo';
import { loadMediaConfig } from './config.js';
import { MongoMediaStore } from './data/mongo-store.js';
import type { MediaDeps } from './domain/ports.js';
import { accountsPort } from './grpc/accounts.js';
import { sweepExpiredUploads } from './domain/sweep-uploads.js';
import { mediaService } from './grpc/handlers.js';
import { createMediaHttpServer } from './http/server.js';
import { createStorage } from './storage/index.js';
import { mediaTools } from './convert/index.js';
import { linkedInAssets } from './linkedin/index.js';

runMain(async () => {
  const config = loadMediaConfig();
  const logger = createLogger('media', config.LOG_LEVEL);
  const metrics = await startProcessRuntime('media', config, logger);
  const mongo = await connectMongo(config.MONGO_URL, config.MONGO_DB);
  const store = new MongoMediaStore(mongo);
  const accounts = accountsPort(config.ACCOUNTS_ADDR);
  const linkedIn = linkedInAssets(mongo, accounts, config);
  await syncIndexes(mongo);
  const deps: MediaDeps = {
    store,
    storage: createStorage(config),
    accounts,
    tools: mediaTools({
      maxImagePixels: config.MEDIA_MAX_IMAGE_PIXELS,
      probeTimeoutMs: config.MEDIA_PROBE_TIMEOUT_MS,
      convertTimeoutMs: config.MEDIA_CONVERT_TIMEOUT_MS,
      convertConcurrency: config.MEDIA_CONVERT_CONCURRENCY,
    }),
    clock: { now: () => new Date() },
    newId: randomUUID,
    stagingDir: config.MEDIA_STAGING_DIR,
    maxImagePixels: config.MEDIA_MAX_IMAGE_PIXELS,
    maxImageBytes: config.MEDIA_MAX_IMAGE_BYTES,
    presignTtlS: config.MEDIA_PRESIGN_TTL_S,
    variantLeaseMs: config.MEDIA_VARIANT_LEASE_MS,
  };
  const http = createMediaHttpServer(deps, { signingKey: config.MEDIA_SIGNING_KEY, logger });
  http.listen(config.MEDIA_HTTP_PORT, config.MEDIA_HTTP_HOST);
  await once(http, 'listening');
  const httpPort = (http.address() as AddressInfo).port;
  const server = await startGrpcServer({
    dependencies: [mongoDependency(mongo)],
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    services: [mediaService(deps), linkedIn.service],
    logger,
  });
  const sweep = setInterval(() => {
    sweepExpiredUploads(deps).then(
      (removed) => removed > 0 && logger.info({ removed }, 'swept expired presigned uploads'),
      (err: unknown) => logger.warn({ err }, 'sweep of expired presigned uploads failed'),
    );
  }, config.MEDIA_SWEEP_INTERVAL_MS);
  sweep.unref();
  logger.info({ port: server.port, httpPort, storage: deps.storage.kind }, 'media listening');
  process.stdout.write(`READY grpc=${config.GRPC_HOST}:${server.port} http=${config.MEDIA_HTTP_HOST}:${httpPort}\n`);
  onShutdown(logger, [
    ['sweep', async () => clearInterval(sweep)],
    ['grpc', () => server.shutdown()],
    ['metrics', () => metrics.close()],
    ['http', () => new Promise<void>((resolve) => http.close(() => resolve()))],
    ['accounts', async () => accounts.close()],
    ['linkedin', async () => linkedIn.close()],
    ['mongo', () => mongo.close()],
  ]);
});
