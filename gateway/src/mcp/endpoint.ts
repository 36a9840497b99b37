import type { RequestListener } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { AppError } from '@spa/errors';
import type { Logger } from '@spa/logger';
import express, { type Request, type Response } from 'express';
import type { Authenticator } from '../auth/authenticator.js';
import { limit } from '../http/rate-limit-headers.js';
import { GLOBAL_LIMIT, type RateLimits } from '../rate-limit/limits.js';
import type { Route } from '../routes/route.js';
import { buildCatalog, type OpenApiDocument } from './catalog.js';
import type { Caller } from './dispatch.js';
import { bearerChallenge, mcpResourceOf } from './oauth/metadata.js';
import { mcpServer, toolListOf, type McpContext } from './server.js';

export interface McpDeps {
  authenticator: Authenticator;
  limits: RateLimits;
  logger: Logger;
  routes: readonly Route[];
  openapi: () => object;
  /** The gateway's own app: every tool call is one of its REST requests. */
  app: RequestListener;
  /** Largest MCP request body (a tool call carrying base64 media is the large one). */
  maxBodyBytes: number;
}

/** Extra data the endpoint hands to the per-request server through the SDK's auth info. */
interface CallerAuthExtra extends Record<string, unknown> {
  caller: Caller;
}

/**
 * POST /mcp: the Streamable HTTP endpoint of the Model Context Protocol, stateless (every request is served
 * by a fresh server over the shared tool catalog, so any replica answers it). Authenticated with the same
 * bearer token as REST and counted once by the global per-IP limit; each tool call is then a REST request.
 */
export function mcpRouter(deps: McpDeps): express.Router {
  let context: McpContext | undefined;
  const contextOf = (): McpContext => {
    if (!context) {
      const catalog = buildCatalog(deps.routes, deps.openapi() as OpenApiDocument);
      context = { app: deps.app, catalog, byName: new Map(catalog.map((t) => [t.name, t])), toolList: toolListOf(catalog) };
    }
    return context;
  };
  const handler = createMcpHandler(
    ({ authInfo }) => {
      const extra = authInfo?.extra as CallerAuthExtra | undefined;
      if (!extra) throw new Error('MCP request without a caller');
      return mcpServer(contextOf(), extra.caller);
    },
    { responseMode: 'json', maxRequestBodySize: deps.maxBodyBytes, onerror: (err) => deps.logger.warn({ err }, 'mcp request failed') },
  );
  const node = toNodeHandler(handler, { maxRequestBodySize: deps.maxBodyBytes, onerror: (err) => deps.logger.error({ err }, 'mcp handler failed') });

  /** The caller; a refusal carries the challenge that sends an OAuth client to the protected resource metadata. */
  const authenticated = async (req: Request, res: Response) => {
    try {
      const principal = await deps.authenticator.authenticate(req.headers.authorization, { mcp: true });
      if (principal.mcp && principal.mcp.resource !== mcpResourceOf(req)) throw new AppError('UNAUTHORIZED', `This access token was issued for ${principal.mcp.resource}`);
      return principal;
    } catch (err) {
      if (err instanceof AppError && err.code === 'UNAUTHORIZED') res.setHeader('WWW-Authenticate', bearerChallenge(req, req.headers.authorization ? 'invalid_token' : undefined));
      throw err;
    }
  };

  const router = express.Router();
  router.all('/', async (req: Request, res: Response) => {
    res.locals.route = '/mcp';
    const origin = req.get('origin');
    if (origin !== undefined && origin !== `${req.protocol}://${req.get('host') ?? ''}`) {
      throw new AppError('CSRF_REJECTED', `MCP requests from a web page are accepted from this server's own origin only, not ${origin}`);
    }
    await limit(res, () => deps.limits.consume('global', GLOBAL_LIMIT, `ip:${req.ip ?? 'unknown'}`));
    const principal = await authenticated(req, res);
    if (principal.kind !== 'api_key') throw new AppError('ENDPOINT_NOT_AVAILABLE', 'A Site Connection token can call only the Site Push endpoints, not the MCP endpoint');
    const caller: Caller = { authorization: req.headers.authorization ?? '', requestId: String(res.getHeader('X-Request-Id') ?? ''), clientIp: req.ip ?? '127.0.0.1' };
    const auth = { token: '', clientId: principal.tokenId, scopes: [...principal.scopes], extra: { caller } satisfies CallerAuthExtra };
    await node(Object.assign(req, { auth }), res);
  });
  return router;
}
