import { runMain } from '@spa/config';
import { checkHealth, onShutdown, startProcessRuntime } from '@spa/grpc';
import { setReadiness, watchDependencies } from '@spa/telemetry';
import { createLogger } from '@spa/logger';
import { connectRedis } from '@spa/redis';
import { createApp } from './app.js';
import { Authenticator } from './auth/authenticator.js';
import { answerCache } from './http/answer-cache.js';
import { answerClientErrorsInEnvelope } from './http/client-error.js';
import { closeClients, createClients } from './clients.js';
import { loadGatewayConfig } from './config.js';
import { closeDashboardClients, createDashboardClients } from './dashboard/clients.js';
import { LoginLimits } from './dashboard/login-limits.js';
import { dashboardRouter } from './dashboard/router.js';
import { SessionStore } from './dashboard/sessions.js';
import { DEFAULT_BUNDLE_DIR } from './dashboard/static.js';
import { Idempotency } from './http/idempotency.js';
import { buildOpenApi } from './openapi/document.js';
import { RateLimits } from './rate-limit/limits.js';
import { ROUTES } from './routes/table.js';

runMain(async () => {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const metrics = await startProcessRuntime('gateway', config, logger);
  const redis = await connectRedis(config.REDIS_URL, logger, 'rate limits fall back to this process');
  const clients = createClients(config);
  // Every request is authenticated by accounts: without it the gateway can answer nothing but errors.
  // Redis is not required: rate limits and idempotency fall back to this process while it is away.
  const readiness = watchDependencies(
    [
      {
        name: 'accounts',
        check: async () => {
          const status = await checkHealth(config.ACCOUNTS_ADDR);
          if (status !== 'SERVING') throw new Error(`accounts ${status}`);
        },
      },
    ],
    { intervalMs: 2_000, timeoutMs: 2_500, logger, onChange: () => undefined },
  );
  setReadiness(() => readiness.healthy());
  const dashboardClients = createDashboardClients(clients, config);
  const app = createApp({
    clients,
    authenticator: new Authenticator(clients, config.AUTH_CACHE_TTL_MS),
    limits: new RateLimits(redis, config.RATE_LIMIT_PREFIX, logger),
    idempotency: new Idempotency(redis, config.RATE_LIMIT_PREFIX),
    logger,
    routes: ROUTES,
    // Built when first asked for (3 MiB and ~100 ms that most replicas never need).
    openapi: () => buildOpenApi(ROUTES),
    trustProxy: config.TRUST_PROXY,
    mediaHttpUrl: config.MEDIA_HTTP_URL,
    readiness: () => ({ ready: readiness.healthy(), failures: readiness.failures() }),
    ...(config.GATEWAY_ANSWER_CACHE ? { answers: answerCache(redis, config.POSTS_LIST_VERSION_PREFIX) } : {}),
    dashboard: dashboardRouter({
      clients: dashboardClients,
      sessions: new SessionStore(redis, config.RATE_LIMIT_PREFIX, { idleSec: config.DASHBOARD_SESSION_IDLE_SEC, absoluteSec: config.DASHBOARD_SESSION_MAX_SEC }),
      loginLimits: new LoginLimits(redis, config.RATE_LIMIT_PREFIX),
      settings: {
        sandboxAccounts: config.DASHBOARD_SANDBOX_ACCOUNTS,
        sessionIdleSec: config.DASHBOARD_SESSION_IDLE_SEC,
        sessionAbsoluteSec: config.DASHBOARD_SESSION_MAX_SEC,
      },
      bundleDir: config.DASHBOARD_BUNDLE_DIR ?? DEFAULT_BUNDLE_DIR,
    }),
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
    ['metrics', () => metrics.close()],
    ['readiness', async () => readiness.stop()],
    ['grpc clients', async () => closeClients(clients)],
    ['dashboard grpc clients', async () => closeDashboardClients(dashboardClients)],
    ['redis', () => redis.quit()],
  ]);
});
