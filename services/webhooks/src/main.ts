import { webhookAttempts, webhooksDisabled } from '@spa/telemetry';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { runMain } from '@spa/config';
import { onShutdown, startGrpcServer, startProcessRuntime } from '@spa/grpc';
import { createLogger } from '@spa/logger';
import { connectMongo, syncIndexes, mongoDependency } from '@spa/mongo';
import { connectNats, natsDependency } from '@spa/nats';
import { loadWebhooksConfig } from './config.js';
import { createSecretBox, newWebhookSecret } from './crypto/secret-box.js';
import { MongoWebhooksStore } from './data/mongo-store.js';
import { Dispatcher } from './delivery/dispatcher.js';
import { httpSender } from './delivery/http-sender.js';
import { dnsResolver } from './delivery/resolver.js';
import type { WebhooksDeps } from './domain/ports.js';
import { recordLoggedEvent, recordPostTerminal } from './domain/record-event.js';
import { StreamEventLog } from './events/event-log.js';
import { consumePublicEvents } from './events/public-event-consumer.js';
import { consumePostTerminal, EVENTS_WAITING_FOR_ATTEMPTS } from './events/post-terminal-consumer.js';
import { webhooksService } from './grpc/handlers.js';

runMain(async () => {
  const config = loadWebhooksConfig();
  const logger = createLogger('webhooks', config.LOG_LEVEL);
  const metrics = await startProcessRuntime('webhooks', config, logger);
  const [mongo, nc] = await Promise.all([connectMongo(config.MONGO_URL, config.MONGO_DB), connectNats(config.NATS_URL, 'webhooks')]);
  const store = new MongoWebhooksStore(mongo);
  await syncIndexes(mongo);
  const deps: WebhooksDeps = {
    store,
    clock: { now: () => new Date() },
    resolver: dnsResolver,
    sender: httpSender,
    secrets: createSecretBox(config.SECRETS_KEY),
    newId: randomUUID,
    newSecret: newWebhookSecret,
    allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE,
    instanceId: `${hostname()}:${process.pid}`,
    observer: { attempted: (outcome: 'delivered' | 'failed' | 'timeout') => webhookAttempts.inc({ outcome }), disabled: () => webhooksDisabled.inc() },
  };
  if (config.WEBHOOKS_ALLOW_PRIVATE) logger.warn('WEBHOOKS_ALLOW_PRIVATE is on: plain http and private addresses are allowed (never in production)');

  const dispatcher = new Dispatcher(
    deps,
    // A first attempt sent from its event holds that event unacknowledged: bounding them bounds the events.
    { concurrency: config.WEBHOOKS_CONCURRENCY, perWebhook: config.WEBHOOKS_CONCURRENCY_PER_WEBHOOK, sentFirst: EVENTS_WAITING_FOR_ATTEMPTS },
    logger,
  );
  const server = await startGrpcServer({
    dependencies: [mongoDependency(mongo), natsDependency(nc)],
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    services: [webhooksService(deps, () => dispatcher.poke(), new StreamEventLog(nc, config.JOBS_NAMESPACE))],
    logger,
  });
  const consumer = await consumePostTerminal(
    nc,
    config.WEBHOOKS_CONSUMER,
    config.JOBS_NAMESPACE,
    // Each delivery's first attempt starts from the event; the poll is for retries and leftovers.
    (event) => recordPostTerminal(deps, event, dispatcher),
    logger,
  );
  // The deployment's public events (the event log): each delivered to the webhooks that chose its kind.
  const publicEvents = await consumePublicEvents(
    nc,
    config.WEBHOOKS_EVENTS_CONSUMER ?? `webhooks-events-${config.JOBS_NAMESPACE}`,
    config.JOBS_NAMESPACE,
    (event) => recordLoggedEvent(deps, event, dispatcher),
    logger,
  );
  dispatcher.start(config.WEBHOOKS_POLL_INTERVAL_MS);
  logger.info({ port: server.port }, 'webhooks listening');
  process.stdout.write(`READY grpc=${config.GRPC_HOST}:${server.port}\n`);
  onShutdown(logger, [
    ['grpc', () => server.shutdown()],
    ['metrics', () => metrics.close()],
    ['events', () => consumer.stop()],
    ['public events', () => publicEvents.stop()],
    ['dispatcher', () => dispatcher.stop()],
    ['nats', () => nc.drain()],
    ['mongo', () => mongo.close()],
  ]);
});
