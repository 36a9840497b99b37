import { OAUTH_PLATFORMS, type OAuthPlatformFacts } from '@spa/platforms';
import type { Route, SandboxRequest, SandboxResponse } from '../router.js';
import type { SandboxState } from '../state.js';
import type { RefreshRefusal } from './store.js';

/**
 * One authorization server for every OAuth platform stand-in, shaped per platform by the same facts
 * table the accounts service connects with (`@spa/platforms` OAUTH_PLATFORMS): the authorize endpoint
 * approves at once on a plain GET and redirects with a code (`sandbox_user=<name>` picks the account,
 * `sandbox_deny=1` answers `error=access_denied`); the token endpoint checks the client, the
 * redirect_uri, the code (single use) and the PKCE verifier, issues expiring access tokens and, where
 * the platform rotates them, single-use refresh tokens; revocation and error answers in each
 * platform's own shape.
 *
 * Sandbox clients: client id `sandbox-<platform>`, secret `sandbox-secret`.
 */

export const SANDBOX_CLIENT_SECRET = 'sandbox-secret';
const pathOf = (url: string) => (url.startsWith('/') ? url : new URL(url).pathname);

function fields(req: SandboxRequest): Record<string, string> {
  const body = req.body && !Buffer.isBuffer(req.body) && typeof req.body === 'object' ? (req.body as Record<string, string>) : {};
  return { ...Object.fromEntries(req.query), ...body };
}

/** The platform's "dead grant" answer (RFC 6749 §5.2, Graph OAuthException 190, Slack ok:false). */
function grantError(facts: OAuthPlatformFacts, reason: string, refusal: RefreshRefusal = 'invalid_grant'): SandboxResponse {
  if (refusal === 'server_error') return { status: 503, body: { error: 'temporarily_unavailable', error_description: 'sandbox: injected outage' } };
  if (refusal === 'rate_limited') return { status: 429, body: { error: 'rate_limited', error_description: 'sandbox: injected rate limit' }, headers: { 'retry-after': '1' } };
  switch (facts.invalidGrant) {
    case 'meta_graph':
      return {
        status: 400,
        body: {
          error: {
            message: refusal === 'checkpoint' ? 'Error validating access token: The user is enrolled in a blocking, logged-in checkpoint' : `Error validating access token: ${reason}`,
            type: 'OAuthException',
            code: 190,
            error_subcode: refusal === 'checkpoint' ? 490 : 463,
            fbtrace_id: 'AsandboxTrace',
          },
        },
      };
    case 'slack':
      return { status: 200, body: { ok: false, error: refusal === 'checkpoint' ? 'account_inactive' : 'invalid_refresh_token' } };
    case 'oauth':
      return { status: 400, body: { error: 'invalid_grant', error_description: refusal === 'checkpoint' ? 'consent revoked by the user' : reason } };
  }
}

function clientOf(facts: OAuthPlatformFacts, req: SandboxRequest, f: Record<string, string>): { id: string; secret: string | undefined } {
  const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (basic) {
    const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
    return { id: decodeURIComponent(id ?? ''), secret: secret === undefined ? undefined : decodeURIComponent(secret) };
  }
  return { id: f[facts.clientIdParam] ?? f.client_id ?? '', secret: f.client_secret };
}

/** What a token answer carries besides the tokens, per platform. */
function tokenExtras(platform: string, account: string): Record<string, unknown> {
  switch (platform) {
    case 'tiktok':
      return { open_id: `open-${account}`, refresh_expires_in: 31_536_000 };
    case 'threads':
      return { user_id: `th-${account}` };
    case 'slack':
      return {
        ok: true,
        token_type: 'bot',
        bot_user_id: `U${account.toUpperCase()}`,
        app_id: 'A0SANDBOX',
        team: { id: 'T0SANDBOX', name: `${account} team` },
        incoming_webhook: {
          channel: `#${account}`,
          channel_id: `chan-${account}`,
          configuration_url: 'https://sandbox.slack.com/services/B0',
          url: `https://hooks.slack.com/services/T0/B0/${account}`,
        },
      };
    case 'discord':
      return { webhook: { id: `wh-${account}`, token: `whtoken-${account}`, channel_id: `chan-${account}`, guild_id: `guild-${account}`, name: `${account} hook`, type: 1 } };
    default:
      return {};
  }
}

function tokens(state: SandboxState, facts: OAuthPlatformFacts, account: string, grant?: { issued: string[] }, keepRefresh?: string): Record<string, unknown> {
  const ttl = state.oauth.accessTtlSeconds;
  const access = state.oauth.issue(facts.platform, account, 'access', facts.refresh === 'none' ? undefined : ttl, grant);
  const refresh = facts.refresh === 'rotating' || (facts.refresh === 'reusable' && !keepRefresh) ? state.oauth.issue(facts.platform, account, 'refresh', undefined, grant) : undefined;
  return {
    access_token: access,
    token_type: 'bearer',
    ...(facts.refresh === 'none' ? {} : { expires_in: ttl }),
    ...(refresh ? { refresh_token: refresh } : {}),
    scope: facts.scopes.join(facts.scopeSeparator),
    ...tokenExtras(facts.platform, account),
  };
}

function authorizeRoute(facts: OAuthPlatformFacts): Route {
  return {
    method: 'GET',
    path: pathOf(facts.authorizeUrl),
    auth: false,
    handle: (req, state) => {
      const q = req.query;
      const redirectUri = q.get('redirect_uri');
      const clientId = q.get(facts.clientIdParam);
      if (!redirectUri || !clientId) return { status: 400, body: { error: 'invalid_request', error_description: `redirect_uri and ${facts.clientIdParam} are required` } };
      if (!facts.perInstance && clientId !== `sandbox-${facts.platform}`) return { status: 400, body: { error: 'invalid_client', error_description: 'unknown client' } };
      if (q.get('response_type') !== 'code') return { status: 400, body: { error: 'unsupported_response_type' } };
      const back = new URL(redirectUri);
      const stateParam = q.get('state');
      if (stateParam !== null) back.searchParams.set('state', stateParam);
      if (q.get('sandbox_deny') === '1') {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'The user denied the request');
        return { status: 302, headers: { location: back.toString() } };
      }
      const challenge = q.get('code_challenge') ?? undefined;
      if (facts.platform === 'twitter' && !challenge) return { status: 400, body: { error: 'invalid_request', error_description: 'code_challenge is required' } };
      if (challenge && q.get('code_challenge_method') !== 'S256') return { status: 400, body: { error: 'invalid_request', error_description: 'code_challenge_method must be S256' } };
      const account = (q.get('sandbox_user') ?? 'oauth_user').replace(/[^\w.-]/g, '_');
      back.searchParams.set('code', state.oauth.issueCode({ platform: facts.platform, account, clientId, redirectUri, challenge }));
      return { status: 302, headers: { location: back.toString() } };
    },
  };
}

function tokenRoute(facts: OAuthPlatformFacts): Route {
  return {
    method: 'POST',
    path: pathOf(facts.tokenUrl),
    auth: false,
    handle: (req, state) => {
      const f = fields(req);
      const client = clientOf(facts, req, f);
      if (!facts.perInstance && (client.id !== `sandbox-${facts.platform}` || client.secret !== SANDBOX_CLIENT_SECRET)) {
        return facts.invalidGrant === 'slack'
          ? { status: 200, body: { ok: false, error: 'invalid_client_id' } }
          : { status: 401, body: { error: 'invalid_client', error_description: 'client authentication failed' } };
      }
      if (f.grant_type === 'authorization_code') {
        const r = state.oauth.redeem(f.code ?? '', client.id, f.redirect_uri ?? '', f.code_verifier);
        if (!r.ok) return grantError(facts, r.reason);
        if (r.platform !== facts.platform) return grantError(facts, 'code issued for another platform');
        // Like Google: a refresh token that stays valid is only given on the account's first consent.
        const again = facts.refresh === 'reusable' && !state.oauth.firstConsent(facts.platform, r.account);
        return { status: 200, body: tokens(state, facts, r.account, r.grant, again ? 'kept' : undefined) };
      }
      if (f.grant_type === 'refresh_token') {
        const refusal = state.oauth.takeRefusal(facts.platform);
        if (refusal) return grantError(facts, 'refused', refusal);
        const r = state.oauth.useRefresh(facts.platform, f.refresh_token ?? '', facts.refresh === 'rotating');
        if (!r) return grantError(facts, 'refresh token invalid, expired or already used');
        return { status: 200, body: tokens(state, facts, r.account, undefined, facts.refresh === 'reusable' ? f.refresh_token : undefined) };
      }
      if (facts.longLived && f.grant_type === facts.longLived.exchangeGrant) return longLived(state, facts, f[facts.longLived.tokenParam] ?? '');
      return { status: 400, body: { error: 'unsupported_grant_type' } };
    },
  };
}

/** Graph long-lived tokens: a live token is exchanged (or renewed) for one valid ~60 days. */
function longLived(state: SandboxState, facts: OAuthPlatformFacts, token: string): SandboxResponse {
  const refusal = state.oauth.takeRefusal(facts.platform);
  if (refusal) return grantError(facts, 'refused', refusal);
  const r = state.oauth.useAccess(facts.platform, token);
  if (!r) return grantError(facts, 'Session has expired');
  const ttl = state.oauth.accessTtlSeconds;
  return { status: 200, body: { access_token: state.oauth.issue(facts.platform, r.account, 'access', ttl), token_type: 'bearer', expires_in: ttl } };
}

function longLivedRoutes(facts: OAuthPlatformFacts): Route[] {
  const ll = facts.longLived;
  if (!ll) return [];
  const paths = [...new Set([pathOf(ll.exchangeUrl), pathOf(ll.refreshUrl)])];
  return paths.map((path) => ({
    method: 'GET',
    path,
    auth: false,
    handle: (req, state) => {
      const grant = req.query.get('grant_type');
      if (grant !== ll.exchangeGrant && grant !== ll.refreshGrant) return { status: 400, body: { error: { message: 'Unsupported grant_type', type: 'OAuthException', code: 100 } } };
      return longLived(state, facts, req.query.get(ll.tokenParam) ?? req.query.get('access_token') ?? '');
    },
  }));
}

function revokeRoutes(facts: OAuthPlatformFacts): Route[] {
  if (!facts.revokeUrl) return [];
  const path = pathOf(facts.revokeUrl);
  if (facts.invalidGrant === 'meta_graph') {
    return [{ method: 'DELETE', path, handle: (req, state) => (state.oauth.revokeAccount(facts.platform, req.account!), { status: 200, body: { success: true } }) }];
  }
  if (facts.invalidGrant === 'slack') {
    return [{ method: 'POST', path, handle: (req, state) => (state.oauth.revokeAccount(facts.platform, req.account!), { status: 200, body: { ok: true, revoked: true } }) }];
  }
  return [{ method: 'POST', path, auth: false, handle: (req, state) => (state.oauth.revoke(fields(req).token ?? ''), { status: 200, body: {} }) }];
}

/** Mastodon: apps register per instance (`POST /api/v1/apps`), then OAuth on that instance. */
const mastodonApps: Route = {
  method: 'POST',
  path: '/api/v1/apps',
  auth: false,
  handle: (req) => {
    const f = fields(req);
    if (!f.client_name || !f.redirect_uris) return { status: 422, body: { error: 'Validation failed: client_name and redirect_uris are required' } };
    const id = `mast-${Math.floor(Math.random() * 1e9)}`;
    return { status: 200, body: { id, name: f.client_name, redirect_uri: f.redirect_uris, client_id: id, client_secret: `secret-${id}`, vapid_key: '' } };
  },
};

/** The OAuth routes of `platform` (empty for credential platforms); they come before its API routes. */
export function oauthRoutes(platform: string): Route[] {
  const facts = OAUTH_PLATFORMS[platform as keyof typeof OAUTH_PLATFORMS];
  if (!facts) return [];
  return [authorizeRoute(facts), tokenRoute(facts), ...longLivedRoutes(facts), ...revokeRoutes(facts), ...(facts.perInstance ? [mastodonApps] : [])];
}
