import { OAUTH_PLATFORMS, type OAuthPlatformFacts } from '@spa/platforms';
import type { Platform } from '@spa/vocabulary';
import { PlatformAuthError, type OAuthClient, type TokenSet } from '../domain/connect/ports.js';
import { basicAuth, platformCall, str } from './http.js';
import { IDENTITY_READERS, type Get } from './identities.js';

/**
 * The one OAuth 2.0 authorization-code client of every platform, driven by the facts table
 * (`@spa/platforms` OAUTH_PLATFORMS): authorize URL with state and PKCE S256, code exchange with the
 * platform's client authentication, Graph long-lived exchange, refresh, revocation, identity.
 *
 * Hand-written rather than oauth4webapi/openid-client: those assume a standards-shaped authorization
 * server (discovery or RFC 8414 metadata, `client_id`, JSON errors, HTTPS only), while these platforms
 * name the client `client_key` (TikTok), refuse with HTTP 200 `ok:false` (Slack), renew with
 * non-standard grants (`fb_exchange_token`, `th_refresh_token`) and answer errors in Graph's shape —
 * every variation would need a bypass, and the sandbox is plain HTTP.
 *
 * With `sandboxUrl`, every platform is reached at `<sandboxUrl>/<platform><path of the real URL>`.
 */
export function oauthClient(opts: { sandboxUrl?: string | undefined }): OAuthClient {
  const factsOf = (platform: Platform): OAuthPlatformFacts => {
    const facts = OAUTH_PLATFORMS[platform];
    if (!facts) throw new Error(`${platform} does not connect with OAuth`);
    return facts;
  };
  const endpoint = (facts: OAuthPlatformFacts, real: string, instanceUrl?: string): string => {
    if (facts.perInstance) return `${(instanceUrl ?? '').replace(/\/+$/, '')}${real}`;
    return opts.sandboxUrl ? `${opts.sandboxUrl}/${facts.platform}${new URL(real).pathname}` : real;
  };
  const apiBase = (facts: OAuthPlatformFacts, instanceUrl?: string) =>
    facts.perInstance ? (instanceUrl ?? '').replace(/\/+$/, '') : opts.sandboxUrl ? `${opts.sandboxUrl}/${facts.platform}` : facts.apiBase;

  const clientFields = (facts: OAuthPlatformFacts, client: { id: string; secret: string }): { headers: Record<string, string>; form: Record<string, string> } =>
    facts.clientAuth === 'basic'
      ? { headers: { authorization: basicAuth(client.id, client.secret) }, form: { [facts.clientIdParam]: client.id } }
      : { headers: {}, form: { [facts.clientIdParam]: client.id, client_secret: client.secret } };

  const tokenSet = (answer: Record<string, unknown>, now = Date.now()): TokenSet => {
    const { access_token, refresh_token, expires_in, ...extras } = answer;
    const accessToken = str(access_token);
    if (!accessToken) throw new PlatformAuthError('transient', 'the token endpoint answered without an access_token');
    const seconds = Number(expires_in);
    return { accessToken, refreshToken: str(refresh_token) || undefined, expiresAt: Number.isFinite(seconds) && seconds > 0 ? new Date(now + seconds * 1000) : undefined, extras };
  };

  async function longLived(facts: OAuthPlatformFacts, client: { id: string; secret: string }, token: string, grant: 'exchange' | 'refresh'): Promise<TokenSet> {
    const ll = facts.longLived!;
    const url = new URL(endpoint(facts, grant === 'exchange' ? ll.exchangeUrl : ll.refreshUrl));
    url.searchParams.set('grant_type', grant === 'exchange' ? ll.exchangeGrant : ll.refreshGrant);
    url.searchParams.set(ll.tokenParam, token);
    if (facts.platform !== 'threads' || grant === 'exchange') url.searchParams.set('client_secret', client.secret);
    if (facts.platform !== 'threads') url.searchParams.set('client_id', client.id);
    return tokenSet(await platformCall(url.toString(), {}, facts.invalidGrant));
  }

  return {
    async registerApp(instanceUrl, redirectUri) {
      const facts = factsOf('mastodon');
      const app = await platformCall(
        `${instanceUrl.replace(/\/+$/, '')}/api/v1/apps`,
        { form: { client_name: 'Social Publishing API', redirect_uris: redirectUri, scopes: facts.scopes.join(' '), website: '' } },
        'oauth',
      );
      if (!str(app.client_id) || !str(app.client_secret)) throw new PlatformAuthError('transient', 'the instance registered no client');
      return { clientId: str(app.client_id), clientSecret: str(app.client_secret) };
    },

    authorizationUrl(platform, p) {
      const facts = factsOf(platform);
      const url = new URL(endpoint(facts, facts.authorizeUrl, p.instanceUrl));
      url.searchParams.set('response_type', 'code');
      url.searchParams.set(facts.clientIdParam, p.clientId);
      url.searchParams.set('redirect_uri', p.redirectUri);
      url.searchParams.set('scope', facts.scopes.join(facts.scopeSeparator));
      url.searchParams.set('state', p.state);
      if (p.codeChallenge) {
        url.searchParams.set('code_challenge', p.codeChallenge);
        url.searchParams.set('code_challenge_method', 'S256');
      }
      for (const [k, v] of Object.entries(facts.authorizeParams ?? {})) url.searchParams.set(k, v);
      return url.toString();
    },

    async exchangeCode(platform, p) {
      const facts = factsOf(platform);
      const auth = clientFields(facts, p.client);
      const answer = await platformCall(
        endpoint(facts, facts.tokenUrl, p.instanceUrl),
        { headers: auth.headers, form: { ...auth.form, grant_type: 'authorization_code', code: p.code, redirect_uri: p.redirectUri, code_verifier: p.codeVerifier } },
        facts.invalidGrant,
      );
      const tokens = tokenSet(answer);
      if (!facts.longLived) return tokens;
      const long = await longLived(facts, p.client, tokens.accessToken, 'exchange');
      return { ...long, extras: { ...tokens.extras, ...long.extras } };
    },

    async identify(platform, tokens, instanceUrl) {
      const facts = factsOf(platform);
      const read = IDENTITY_READERS[platform];
      if (!read) throw new Error(`no identity reader for ${platform}`);
      const base = apiBase(facts, instanceUrl);
      const get: Get = (path, token, o = {}) => {
        const url = new URL(`${base}${path}`);
        for (const [k, v] of Object.entries(o.query ?? {})) url.searchParams.set(k, v);
        if (o.tokenIn === 'query') url.searchParams.set('access_token', token);
        const headers: Record<string, string> = o.tokenIn === 'query' ? {} : { authorization: `Bearer ${token}` };
        return platformCall(url.toString(), { headers }, facts.invalidGrant);
      };
      return read(get, tokens);
    },

    async refresh(platform, p) {
      const facts = factsOf(platform);
      if (facts.longLived) return longLived(facts, p.client, p.credentials.user_access_token ?? p.credentials.access_token ?? '', 'refresh');
      const refreshToken = p.credentials.refresh_token;
      if (!refreshToken) throw new PlatformAuthError('invalid_grant', `${platform} gave no refresh token: reconnect the account when its token expires`);
      const auth = clientFields(facts, p.client);
      const answer = await platformCall(
        endpoint(facts, facts.tokenUrl, p.credentials.instance_url),
        { headers: auth.headers, form: { ...auth.form, grant_type: 'refresh_token', refresh_token: refreshToken } },
        facts.invalidGrant,
      );
      return tokenSet(answer);
    },

    async revoke(platform, p) {
      const facts = factsOf(platform);
      if (!facts.revokeUrl) return false;
      const url = endpoint(facts, facts.revokeUrl, p.credentials.instance_url);
      const token = p.credentials.refresh_token || p.credentials.user_access_token || p.credentials.access_token || '';
      if (facts.invalidGrant === 'meta_graph') {
        await platformCall(`${url}?access_token=${encodeURIComponent(p.credentials.user_access_token ?? p.credentials.access_token ?? '')}`, { method: 'DELETE' }, facts.invalidGrant);
      } else if (facts.invalidGrant === 'slack') {
        await platformCall(url, { headers: { authorization: `Bearer ${p.credentials.access_token ?? ''}` }, form: {} }, facts.invalidGrant);
      } else {
        const auth = p.client ? clientFields(facts, p.client) : { headers: {} as Record<string, string>, form: {} as Record<string, string> };
        await platformCall(url, { headers: auth.headers, form: { ...auth.form, token } }, facts.invalidGrant);
      }
      return true;
    },
  };
}
