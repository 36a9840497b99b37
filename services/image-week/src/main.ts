import { quoteWeekGarbles, quoteWeekItemDuration } from '@spa/telemetry';
import { randomUUID } from 'node:crypto';
import { runMain } from '@spa/config';
import { onShutdown, startGrpcServer, startProcessRuntime } from '@spa/grpc';
import { EventOutbox } from '@spa/events';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes, mongoDependency } from '@spa/mongo';
import { connectNats, natsDependency } from '@spa/nats';
import { loadImageWeekConfig } from './config.js';
import { MongoLeases, MongoPostClaims, MongoQuoteLedger, MongoRunQuotaClaims } from './data/claims.js';
import { registerModels } from './data/models.js';
import { MongoRunStore } from './data/mongo-store.js';
import { OutboxRunEvents } from './data/run-events.js';
import { planRun } from './domain/plan-run.js';
import type { ImageWeekDeps } from './domain/ports.js';
import { processItem } from './domain/process-item.js';
import { accountsPort, mediaPort, postsPort, quotesPort } from './grpc/clients.js';
import { imageWeekService } from './grpc/handlers.js';
import { consumeImageWeekJobs, imageWeekJobs } from './jobs/queue.js';
import { startSweeper } from './jobs/sweeper.js';
import { SharpCardRenderer } from './render/card.js';
import { defaultOcrWorkers, OcrReader } from './verify/ocr.js';
import { VisionReader } from './verify/vision.js';

runMain(async () => {
  const config = loadImageWeekConfig();
  const logger = createLogger('image-week', config.LOG_LEVEL);
  const metrics = await startProcessRuntime('image-week', config, logger);
  const [mongo, nc] = await Promise.all([connectMongo(config.MONGO_URL, config.MONGO_DB), connectNats(config.NATS_URL, 'image-week')]);
  const models = registerModels(mongo);
  // Public events of Quote Week runs (image_week_run.completed / .failed).
  const outbox = new EventOutbox({ connection: mongo, nc, namespace: config.JOBS_NAMESPACE, logger, hold: config.EVENTS_RELAY_HOLD });
  await syncIndexes(mongo);
  await outbox.start(config.EVENTS_RELAY_INTERVAL_MS);
  const ocr = new OcrReader(config.IMAGE_WEEK_OCR_WORKERS ?? defaultOcrWorkers());
  const reader = config.VISION_BASE_URL
    ? new VisionReader(
        { baseUrl: config.VISION_BASE_URL, apiKey: config.VISION_API_KEY, model: config.VISION_MODEL, timeoutMs: config.VISION_TIMEOUT_MS, costCentsPerRead: config.VISION_COST_CENTS },
        ocr,
        logger,
      )
    : ocr;
  const clients = {
    accounts: accountsPort(config.ACCOUNTS_ADDR, config.GRPC_DEADLINE_MS),
    posts: postsPort(config.POSTS_ADDR, config.GRPC_DEADLINE_MS),
    media: mediaPort(config.MEDIA_ADDR, config.GRPC_DEADLINE_MS),
    quotes: quotesPort(config.GENERATION_ADDR, config.GENERATION_DEADLINE_MS),
  };
  const deps: ImageWeekDeps = {
    observer: {
      cardChecked: (ms, garbled) => {
        quoteWeekItemDuration.observe(ms / 1000);
        if (garbled) quoteWeekGarbles.inc();
      },
    },
    store: new MongoRunStore(mongo, models),
    leases: new MongoLeases(models),
    postClaims: new MongoPostClaims(models),
    quota: new MongoRunQuotaClaims(models),
    quoteLedger: new MongoQuoteLedger(models),
    ...clients,
    renderer: new SharpCardRenderer(config.IMAGE_WEEK_TEMPLATE_SET),
    reader,
    jobs: await imageWeekJobs(nc, config.JOBS_NAMESPACE),
    clock: { now: () => new Date() },
    events: new OutboxRunEvents(outbox),
    settings: {
      templateVersion: config.IMAGE_WEEK_TEMPLATE_SET,
      rendersPerWorkspace: config.IMAGE_WEEK_RENDERS_PER_WORKSPACE,
      leaseMs: config.IMAGE_WEEK_LEASE_MS,
      maxAttempts: config.IMAGE_WEEK_MAX_ATTEMPTS,
    },
  };
  // Start the OCR workers now: it takes seconds, and the first card should not wait for them.
  if (config.IMAGE_WEEK_OCR_WARM) void ocr.warm().catch((err: unknown) => logger.error({ err }, 'the OCR worker did not start'));
  const replica = `image-week-${randomUUID()}`;
  // Each job's work holds its leases under its own name: a second delivery of the same item in this replica (the
  // sweeper re-sends stale work) cannot share the first one's lease.
  const consumer = await consumeImageWeekJobs(
    nc,
    (job) => {
      const owner = `${replica}:${randomUUID()}`;
      return job.itemId === 0 ? planRun(deps, job.workspaceId, job.runId, owner).then((done) => (done ? 'done' : 'later')) : processItem(deps, job, owner);
    },
    logger,
    {
      namespace: config.JOBS_NAMESPACE,
      concurrency: config.IMAGE_WEEK_CONCURRENCY,
      ackWaitMs: config.IMAGE_WEEK_JOB_ACK_WAIT_MS,
      retryDelayMs: 1_000,
    },
  );
  const sweeper = startSweeper(deps, logger, { intervalMs: config.IMAGE_WEEK_SWEEP_INTERVAL_MS, staleMs: config.IMAGE_WEEK_STALE_MS });
  const server = await startGrpcServer({ dependencies: [mongoDependency(mongo), natsDependency(nc)], host: config.GRPC_HOST, port: config.GRPC_PORT, services: [imageWeekService(deps)], logger });
  logger.info({ port: server.port, templates: config.IMAGE_WEEK_TEMPLATE_SET, reader: config.VISION_BASE_URL ? 'vision' : 'ocr' }, 'image-week listening');
  process.stdout.write(`READY grpc=${config.GRPC_HOST}:${server.port}\n`);
  onShutdown(logger, [
    ['grpc', () => server.shutdown()],
    ['metrics', () => metrics.close()],
    ['jobs', () => consumer.stop()],
    ['sweeper', () => sweeper.stop()],
    ['event outbox', () => outbox.stop()],
    ['nats', () => nc.drain()],
    ['ocr', () => ocr.close()],
    ['clients', async () => Object.values(clients).forEach((c) => c.close())],
    ['mongo', () => mongo.close()],
  ]);
});
