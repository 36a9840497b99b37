import { runMain } from '@spa/config';
import { onShutdown } from '@spa/grpc';
import { createLogger } from '@spa/logger';
import { connectRedis } from '@spa/redis';
import { createApp } from './app.js';
import { Authenticator } from './auth/authenticator.js';
import { answerClientErrorsInEnvelope } from './http/client-error.js';
import { closeClients, createClients } from './clients.js';
import { loadGatewayConfig } from './config.js';
import { Idempotency } from './http/idempotency.js';
import { buildOpenApi } from './openapi/document.js';
import { RateLimits } from './rate-limit/limits.js';
import { ROUTES } from './routes/table.js';

runMain(async () => {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const redis = await connectRedis(config.REDIS_URL, logger, 'rate limits fall back to this process');
  const clients = createClients(config);
  const app = createApp({
    clients,
    authenticator: new Authenticator(clients, config.AUTH_CACHE_TTL_MS),
    limits: new RateLimits(redis, config.RATE_LIMIT_PREFIX, logger),
    idempotency: new Idempotency(redis, config.RATE_LIMIT_PREFIX),
    logger,
    routes: ROUTES,
    openapi: buildOpenApi(ROUTES),
    trustProxy: config.TRUST_PROXY,
    mediaHttpUrl: config.MEDIA_HTTP_URL,
  });
  const server = app.listen(config.HTTP_PORT, config.HTTP_HOST);
  answerClientErrorsInEnvelope(server);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.HTTP_PORT;
  logger.info({ port }, 'gateway listening');
  process.stdout.write(`READY http=${config.HTTP_HOST}:${port}\n`);
  onShutdown(logger, [
    ['http', () => new Promise<void>((resolve) => server.close(() => resolve()))],
    ['grpc clients', async () => closeClients(clients)],
    ['redis', () => redis.quit()],
  ]);
});
