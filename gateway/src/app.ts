import { randomUUID } from 'node:crypto';
import { AppError } from '@spa/errors';
import { withRequestId, type Logger } from '@spa/logger';
import compression from 'compression';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { httpServerDuration, SpanKind, startSpan } from '@spa/telemetry';
import type { Authenticator } from './auth/authenticator.js';
import type { Clients } from './clients.js';
import { errorHandler } from './http/errors.js';
import { mediaRelay } from './http/media-relay.js';
import { streamedUploadHandler, uploadSpecOf } from './http/media-upload.js';
import type { AnswerCache } from './http/answer-cache.js';
import type { Idempotency, StoredAnswer } from './http/idempotency.js';
import { authorize } from './http/policy.js';
import { limit } from './http/rate-limit-headers.js';
import { validate } from './http/validate.js';
import { isInProcess } from './mcp/dispatch.js';
import { mcpRouter } from './mcp/endpoint.js';
import { oauthRouter } from './mcp/oauth/router.js';
import { mountDocs } from './openapi/docs-page.js';
import { oauthCallbackRouter } from './oauth/callback.js';
import { BUCKETS, GLOBAL_LIMIT, type RateLimits } from './rate-limit/limits.js';
import { Answer, type Route } from './routes/route.js';

export interface GatewayDeps {
  clients: Clients;
  authenticator: Authenticator;
  limits: RateLimits;
  idempotency: Idempotency;
  logger: Logger;
  routes: readonly Route[];
  /** Builds the OpenAPI document: called on the first GET /openapi.json, whose JSON is then kept (not the object). */
  openapi: () => object;
  trustProxy: number;
  /** The media service's HTTP server, relayed at /media/<r2_key>. */
  mediaHttpUrl?: string;
  /** Whether the gateway can serve (what it cannot work without answers); GET /readyz. */
  readiness?: () => { ready: boolean; failures: Record<string, string> };
  /** The dashboard surface (web app + its session endpoints), mounted at /dashboard. */
  dashboard?: express.Router;
  /** Answers of `cachedUntilPostsChange` routes, by workspace and URL; without it every request asks the backend. */
  answers?: AnswerCache;
  /** Largest request body of the MCP endpoint (/mcp); default 32 MiB. */
  mcpMaxBodyBytes?: number;
}

/** Names the route template a request matched, for metrics (bounded labels: never the raw path). */
const tagRoute = (template: string) => (_req: Request, res: Response, next: NextFunction) => {
  res.locals.route = template;
  next();
};

const REQUEST_ID = /^[\w.-]{1,128}$/;

function handlerFor(route: Route, deps: GatewayDeps) {
  const bucket = route.bucket;
  return async (req: Request, res: Response): Promise<void> => {
    const principal = await deps.authenticator.authenticate(req.headers.authorization, { mcp: isInProcess(req) });
    authorize(route, principal);
    if (bucket) await limit(res, () => deps.limits.consume(bucket, BUCKETS[bucket], principal.tokenId));
    const execute = async (): Promise<StoredAnswer> => {
      const params = route.params ? validate(route.params, req.params, 'path parameters') : {};
      const query = route.query ? validate(route.query, req.query, 'query parameters') : {};
      const body = route.body ? validate(route.body, req.body ?? undefined, 'request body') : {};
      if (!route.handle) throw new AppError('ENDPOINT_NOT_AVAILABLE', 'This endpoint is not available to API keys');
      const result = await route.handle({ principal, clients: deps.clients, params, query, body });
      return result instanceof Answer ? { status: result.status, body: result.body } : { status: route.status, body: result };
    };
    const key = req.get('idempotency-key');
    if (route.method === 'post' && key !== undefined) {
      const answer = await deps.idempotency.run(principal.tokenId, key, { method: req.method, path: req.path, body: req.body }, execute);
      if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.status(answer.status).json(answer.body);
      return;
    }
    if (route.cachedUntilPostsChange && deps.answers) {
      // Kept as the JSON sent: a hit costs no backend call, no mapping and no serializing. An error is never kept.
      const kept = await deps.answers.get(principal.workspaceId, req.originalUrl, async () => {
        const answer = await execute();
        return { status: answer.status, json: JSON.stringify(answer.body) };
      });
      res.status(kept.status).type('json').send(kept.json);
      return;
    }
    const answer = await execute();
    res.status(answer.status).json(answer.body);
  };
}

/** /api/v1: the global limit, the OpenAPI document, then every route of the table; anything else is NOT_FOUND. */
function apiRouter(deps: GatewayDeps, compress: RequestHandler): express.Router {
  const api = express.Router();
  api.use(async (req: Request, res: Response, next: NextFunction) => {
    // A tool call of the MCP endpoint: the MCP request it came from was counted.
    if (!isInProcess(req)) await limit(res, () => deps.limits.consume('global', GLOBAL_LIMIT, `ip:${req.ip ?? 'unknown'}`));
    next();
  });
  let openapiJson: string | undefined;
  api.get('/openapi.json', compress, (_req, res) => {
    openapiJson ??= JSON.stringify(deps.openapi());
    res.type('json').send(openapiJson);
  });
  for (const route of deps.routes) {
    const upload = uploadSpecOf(route);
    if (upload) {
      api[route.method](expressPath(route.path), tagRoute(route.path), streamedUploadHandler(route, upload, deps));
      continue;
    }
    const handlers = route.body ? [express.json({ limit: route.bodyLimit ?? '1mb', type: () => true })] : [];
    api[route.method](expressPath(route.path), tagRoute(route.path), ...handlers, handlerFor(route, deps));
  }
  api.use((req: Request) => {
    throw new AppError('NOT_FOUND', `No such endpoint: ${req.method} /api/v1${req.path}`);
  });
  return api;
}

export const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** Builds the gateway's Express app from the route table. */
export function createApp(deps: GatewayDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // No ETag: hashing every JSON body costs CPU on the hot path and clients of this API do not revalidate.
  app.set('etag', false);
  app.set('trust proxy', deps.trustProxy);
  app.set('query parser', 'simple');

  app.use((req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    const traceparent = req.get('traceparent');
    const span = startSpan(req.method, { kind: SpanKind.SERVER, parent: traceparent ? { traceparent, tracestate: req.get('tracestate') ?? '' } : undefined });
    res.once('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const route = typeof res.locals.route === 'string' ? res.locals.route : 'unmatched';
      httpServerDuration.observe({ method: req.method, route, status: String(res.statusCode) }, ms / 1000);
      span.rename(`${req.method} ${route}`);
      span.end(res.statusCode >= 500, { 'http.response.status_code': res.statusCode, 'http.route': route, 'spa.request_id': requestId });
      deps.logger.info({ request_id: requestId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    span.run(() => withRequestId(requestId, next));
  });

  // Liveness: the process answers (cheap, no dependency). Readiness: it can do its work.
  app.get('/healthz', tagRoute('/healthz'), (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', tagRoute('/readyz'), (_req, res) => {
    const state = deps.readiness?.() ?? { ready: true, failures: {} };
    res.status(state.ready ? 200 : 503).json(state.ready ? { status: 'ready' } : { status: 'not_ready', failures: state.failures });
  });
  // The reference (document and docs page) is large and compresses well; API answers stay uncompressed.
  const compress = compression();
  // The API before the other surfaces: it is the hot path (each layer passed costs a match per request),
  // and none of the mounts below serves a path under /api/v1.
  app.use('/api/v1', apiRouter(deps, compress));
  mountDocs(app, compress);
  app.use('/mcp', mcpRouter({ ...deps, app, maxBodyBytes: deps.mcpMaxBodyBytes ?? 32 * 1024 * 1024 }));
  app.use(oauthRouter(deps));
  app.use(oauthCallbackRouter(deps.clients, deps.logger));
  if (deps.mediaHttpUrl) app.use(mediaRelay(deps.mediaHttpUrl, deps.logger));
  if (deps.dashboard) app.use('/dashboard', deps.dashboard);
  app.use((req: Request) => {
    throw new AppError('NOT_FOUND', `No such endpoint: ${req.method} ${req.path}; the API lives under /api/v1`);
  });
  app.use(errorHandler(deps.logger));
  return app;
}
