import { AppError } from '@spa/errors';
import type { Logger } from '@spa/logger';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Clients } from '../../clients.js';
import { limit } from '../../http/rate-limit-headers.js';
import { GLOBAL_LIMIT, type RateLimits } from '../../rate-limit/limits.js';
import { AuthorizationRefused, checkAuthorizationRequest, redirectWith } from './authorization-request.js';
import { authorizationServerMetadata, mcpResourceOf, originOf, PRM_PATH, protectedResourceMetadata } from './metadata.js';

export interface OAuthDeps {
  clients: Clients;
  limits: RateLimits;
  logger: Logger;
}

/** The dashboard page where a member signs in and consents. */
export const CONSENT_PATH = '/dashboard/oauth/consent';

type OAuthError = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_client_metadata' | 'server_error' | 'temporarily_unavailable';

/** An OAuth error answer (RFC 6749 §5.2): the token, registration and revocation endpoints speak OAuth, not the API's envelope. */
function oauthError(res: Response, status: number, error: OAuthError, description: string): void {
  res.status(status).setHeader('Cache-Control', 'no-store');
  res.json({ error, error_description: description });
}

const field = (body: Record<string, unknown>, name: string): string => (typeof body[name] === 'string' ? (body[name] as string) : '');

/** The OAuth error of a failed backend call on the token endpoint. */
function tokenFailure(res: Response, err: unknown, logger: Logger): void {
  if (err instanceof AppError && (err.code === 'UNAUTHORIZED' || err.code === 'NOT_FOUND' || err.code === 'INVALID_PARAMETERS' || err.code === 'WORKSPACE_FORBIDDEN')) {
    oauthError(res, 400, 'invalid_grant', err.message.replace(/^invalid_grant: /, ''));
    return;
  }
  logger.warn({ err }, 'oauth token request failed');
  oauthError(res, 503, 'temporarily_unavailable', 'The authorization server could not answer; retry shortly');
}

/**
 * OAuth 2.1 for MCP clients, as the MCP authorization specification asks: protected resource metadata
 * (RFC 9728) and authorization server metadata (RFC 8414), client ID metadata documents and dynamic client
 * registration (RFC 7591), the authorization code flow with PKCE (S256 only) through the dashboard's sign-in
 * and consent page, refresh with rotation, and revocation (RFC 7009).
 */
export function oauthRouter(deps: OAuthDeps): express.Router {
  const router = express.Router();
  const globalLimit = async (req: Request, res: Response, next: NextFunction) => {
    await limit(res, () => deps.limits.consume('global', GLOBAL_LIMIT, `ip:${req.ip ?? 'unknown'}`));
    next();
  };
  const forms = [express.urlencoded({ extended: false, limit: '16kb' }), express.json({ limit: '16kb' })];

  for (const path of [PRM_PATH, `${PRM_PATH}/mcp`]) router.get(path, (req, res) => void res.json(protectedResourceMetadata(req)));
  router.get('/.well-known/oauth-authorization-server', (req, res) => void res.json(authorizationServerMetadata(req)));

  router.post('/oauth/register', globalLimit, express.json({ limit: '16kb' }), async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const redirectUris = Array.isArray(body.redirect_uris) ? body.redirect_uris.filter((u): u is string => typeof u === 'string') : [];
    if (body.token_endpoint_auth_method !== undefined && body.token_endpoint_auth_method !== 'none') {
      return oauthError(res, 400, 'invalid_client_metadata', 'token_endpoint_auth_method: only none (public clients with PKCE) is supported');
    }
    try {
      const { client } = await deps.clients.mcpAuthorization.registerClient({ clientName: field(body, 'client_name'), redirectUris });
      res.status(201).setHeader('Cache-Control', 'no-store');
      res.json({
        client_id: client!.clientId,
        client_id_issued_at: Math.floor(Date.parse(client!.createdAt) / 1000),
        client_name: client!.clientName,
        redirect_uris: client!.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'INVALID_PARAMETERS') return oauthError(res, 400, 'invalid_client_metadata', (err.details ?? [err.message]).join('; '));
      throw err;
    }
  });

  // Checked here, then handed to the dashboard's consent page (which checks it again when the member answers).
  router.get('/oauth/authorize', globalLimit, async (req: Request, res: Response) => {
    try {
      await checkAuthorizationRequest(deps.clients, req.query, mcpResourceOf(req));
      res.redirect(302, `${CONSENT_PATH}?${new URLSearchParams(req.query as Record<string, string>).toString()}`);
    } catch (err) {
      if (!(err instanceof AuthorizationRefused)) throw err;
      const redirectUri = typeof req.query.redirect_uri === 'string' ? req.query.redirect_uri : undefined;
      if (err.redirect && redirectUri) {
        const state = typeof req.query.state === 'string' ? req.query.state : undefined;
        return res.redirect(302, redirectWith(redirectUri, { error: err.error, error_description: err.message, state, iss: originOf(req) }));
      }
      res.status(400).type('text/plain').send(`This sign-in link is not valid: ${err.message}`);
    }
  });

  router.post('/oauth/token', globalLimit, ...forms, async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const clientId = field(body, 'client_id');
    if (!clientId) return oauthError(res, 401, 'invalid_client', 'client_id is required (public clients authenticate with PKCE)');
    const grantType = field(body, 'grant_type');
    try {
      let tokens;
      if (grantType === 'authorization_code') {
        ({ tokens } = await deps.clients.mcpAuthorization.exchangeCode({
          code: field(body, 'code'),
          clientId,
          redirectUri: field(body, 'redirect_uri'),
          codeVerifier: field(body, 'code_verifier'),
          resource: field(body, 'resource').replace(/\/$/, ''),
        }));
      } else if (grantType === 'refresh_token') {
        ({ tokens } = await deps.clients.mcpAuthorization.refreshTokens({ refreshToken: field(body, 'refresh_token'), clientId }));
      } else {
        return oauthError(res, 400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
      }
      res.setHeader('Cache-Control', 'no-store');
      res.json({ access_token: tokens!.accessToken, token_type: 'Bearer', expires_in: tokens!.expiresInSec, refresh_token: tokens!.refreshToken, scope: tokens!.scopes.join(' ') });
    } catch (err) {
      tokenFailure(res, err, deps.logger);
    }
  });

  router.post('/oauth/revoke', globalLimit, ...forms, async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const token = field(body, 'token');
    if (!token) return oauthError(res, 400, 'invalid_request', 'token is required');
    await deps.clients.mcpAuthorization.revokeToken({ token, clientId: field(body, 'client_id') });
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).end();
  });
  return router;
}
