import type { Platform } from '@spa/vocabulary';

/**
 * How each platform connects an account: one declarative entry per platform, served by one generic
 * OAuth 2.0 engine (accounts) and by one generic stand-in (the sandbox). Facts from each platform's
 * own documentation (searched in its developer docs); where a platform is silent, the entry says so.
 */

/** How the platform says "this grant (code or refresh token) is dead": the only answers that disconnect. */
export type InvalidGrantShape =
  /** RFC 6749 §5.2: 400/401 `{error: "invalid_grant"}` (X, Google, LinkedIn, Pinterest, TikTok, Tumblr, Discord, Mastodon). */
  | 'oauth'
  /** Graph API: `{error: {type: "OAuthException", code: 190, error_subcode}}` (Facebook, Instagram, Threads). */
  | 'meta_graph'
  /** Slack Web API: HTTP 200 `{ok: false, error: "invalid_refresh_token" | "invalid_grant" | "token_revoked"}`. */
  | 'slack';

/** What refreshing does at this platform. */
export type RefreshStyle =
  /** `grant_type=refresh_token`; the answer carries a NEW refresh token and the old one is dead (X, TikTok, Pinterest continuous refresh, Tumblr). */
  | 'rotating'
  /** `grant_type=refresh_token`; the refresh token stays valid (Google, LinkedIn partners, Discord). */
  | 'reusable'
  /** Graph long-lived token re-exchanged before its ~60 days run out (Facebook `fb_exchange_token`, Threads `th_refresh_token`). */
  | 'long_lived_exchange'
  /** Tokens do not expire (Mastodon; Slack bot tokens without rotation). */
  | 'none';

export interface OAuthPlatformFacts {
  platform: Platform;
  /** Absolute URLs at the real platform; Mastodon's are paths on the account's own instance. */
  authorizeUrl: string;
  tokenUrl: string;
  /** Absent where the platform has no token revocation endpoint. */
  revokeUrl?: string;
  /** Where its API (identity, publishing) lives; the publisher's connector uses the same base. */
  apiBase: string;
  scopes: readonly string[];
  scopeSeparator: ' ' | ',';
  /** PKCE S256 sent (and required by X); 'none' where the platform's web flow has no PKCE. */
  pkce: 'S256' | 'none';
  /** TikTok names its client id `client_key`. */
  clientIdParam: 'client_id' | 'client_key';
  /** How the client authenticates at the token endpoint. */
  clientAuth: 'basic' | 'body';
  refresh: RefreshStyle;
  invalidGrant: InvalidGrantShape;
  /** Extra authorize parameters (Google: offline access so a refresh token is issued). */
  authorizeParams?: Readonly<Record<string, string>>;
  /** Per-instance app registration (`POST /api/v1/apps`) before OAuth. */
  perInstance?: boolean;
  /**
   * Graph-style long-lived tokens: after the code exchange the short-lived token is exchanged for a
   * long-lived one (`exchangeGrant`), which is later renewed (`refreshGrant`) before it expires.
   */
  longLived?: { exchangeUrl: string; exchangeGrant: string; tokenParam: string; refreshUrl: string; refreshGrant: string };
  /** A second step picks what posts (a Facebook page, an Instagram business account, a Slack/Discord channel). */
  selects?: 'page' | 'instagram_account' | 'channel' | 'board' | 'location' | 'blog';
}

const GRAPH = 'https://graph.facebook.com/v20.0';

export const OAUTH_PLATFORMS: Readonly<Partial<Record<Platform, OAuthPlatformFacts>>> = {
  twitter: {
    platform: 'twitter',
    authorizeUrl: 'https://x.com/i/oauth2/authorize',
    tokenUrl: 'https://api.x.com/2/oauth2/token',
    revokeUrl: 'https://api.x.com/2/oauth2/revoke',
    apiBase: 'https://api.x.com',
    scopes: ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'],
    scopeSeparator: ' ',
    pkce: 'S256',
    clientIdParam: 'client_id',
    clientAuth: 'basic',
    refresh: 'rotating',
    invalidGrant: 'oauth',
  },
  linkedin: {
    platform: 'linkedin',
    authorizeUrl: 'https://www.linkedin.com/oauth/v2/authorization',
    tokenUrl: 'https://www.linkedin.com/oauth/v2/accessToken',
    revokeUrl: 'https://www.linkedin.com/oauth/v2/revoke',
    apiBase: 'https://api.linkedin.com',
    scopes: ['openid', 'profile', 'w_member_social'],
    scopeSeparator: ' ',
    pkce: 'none',
    clientIdParam: 'client_id',
    clientAuth: 'body',
    refresh: 'reusable',
    invalidGrant: 'oauth',
  },
  youtube: {
    platform: 'youtube',
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    revokeUrl: 'https://oauth2.googleapis.com/revoke',
    apiBase: 'https://www.googleapis.com',
    scopes: ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.force-ssl', 'https://www.googleapis.com/auth/youtube.readonly'],
    scopeSeparator: ' ',
    pkce: 'S256',
    clientIdParam: 'client_id',
    clientAuth: 'body',
    refresh: 'reusable',
    invalidGrant: 'oauth',
    authorizeParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
  },
  google_business: {
    platform: 'google_business',
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    revokeUrl: 'https://oauth2.googleapis.com/revoke',
    apiBase: 'https://mybusiness.googleapis.com',
    scopes: ['https://www.googleapis.com/auth/business.manage', 'openid', 'profile'],
    scopeSeparator: ' ',
    pkce: 'S256',
    clientIdParam: 'client_id',
    clientAuth: 'body',
    refresh: 'reusable',
    invalidGrant: 'oauth',
    authorizeParams: { access_type: 'offline', prompt: 'consent' },
    selects: 'location',
  },
  facebook: {
    platform: 'facebook',
    authorizeUrl: 'https://www.facebook.com/v20.0/dialog/oauth',
    tokenUrl: `${GRAPH}/oauth/access_token`,
    revokeUrl: `${GRAPH}/me/permissions`,
    apiBase: GRAPH,
    scopes: ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'read_insights', 'business_management'],
    scopeSeparator: ',',
    pkce: 'none',
    clientIdParam: 'client_id',
    clientAuth: 'body',
    refresh: 'long_lived_exchange',
    invalidGrant: 'meta_graph',
    longLived: {
      exchangeUrl: `${GRAPH}/oauth/access_token`,
      exchangeGrant: 'fb_exchange_token',
      tokenParam: 'fb_exchange_token',
      refreshUrl: `${GRAPH}/oauth/access_token`,
      refreshGrant: 'fb_exchange_token',
    },
    selects: 'page',
  },
  instagram: {
    platform: 'instagram',
    authorizeUrl: 'https://www.facebook.com/v20.0/dialog/oauth',
    tokenUrl: `${GRAPH}/oauth/access_token`,
    revokeUrl: `${GRAPH}/me/permissions`,
    apiBase: GRAPH,
    scopes: ['instagram_basic', 'instagram_content_publish', 'instagram_manage_insights', 'pages_show_list', 'pages_read_engagement', 'business_management'],
    scopeSeparator: ',',
    pkce: 'none',
    clientIdParam: 'client_id',
    clientAuth: 'body',
    refresh: 'long_lived_exchange',
    invalidGrant: 'meta_graph',
    longLived: {
      exchangeUrl: `${GRAPH}/oauth/access_token`,
      exchangeGrant: 'fb_exchange_token',
      tokenParam: 'fb_exchange_token',
      refreshUrl: `${GRAPH}/oauth/access_token`,
      refreshGrant: 'fb_exchange_token',
    },
    selects: 'instagram_account',
  },
  threads: {
    platform: 'threads',
    authorizeUrl: 'https://threads.net/oauth/authorize',
    tokenUrl: 'https://graph.threads.net/oauth/access_token',
    apiBase: 'https://graph.threads.net/v1.0',
    scopes: ['threads_basic', 'threads_content_publish', 'threads_manage_insights', 'threads_manage_replies'],
    scopeSeparator: ',',
    pkce: 'none',
    clientIdParam: 'client_id',
    clientAuth: 'body',
    refresh: 'long_lived_exchange',
    invalidGrant: 'meta_graph',
    longLived: {
      exchangeUrl: 'https://graph.threads.net/access_token',
      exchangeGrant: 'th_exchange_token',
      tokenParam: 'access_token',
      refreshUrl: 'https://graph.threads.net/refresh_access_token',
      refreshGrant: 'th_refresh_token',
    },
  },
  pinterest: {
    platform: 'pinterest',
    authorizeUrl: 'https://www.pinterest.com/oauth/',
    tokenUrl: 'https://api.pinterest.com/v5/oauth/token',
    apiBase: 'https://api.pinterest.com',
    scopes: ['boards:read', 'pins:read', 'pins:write', 'user_accounts:read'],
    scopeSeparator: ',',
    pkce: 'none',
    clientIdParam: 'client_id',
    clientAuth: 'basic',
    refresh: 'rotating',
    invalidGrant: 'oauth',
    selects: 'board',
  },
  tiktok: {
    platform: 'tiktok',
    authorizeUrl: 'https://www.tiktok.com/v2/auth/authorize/',
    tokenUrl: 'https://open.tiktokapis.com/v2/oauth/token/',
    revokeUrl: 'https://open.tiktokapis.com/v2/oauth/revoke/',
    apiBase: 'https://open.tiktokapis.com',
    scopes: ['user.info.basic', 'video.publish', 'video.upload', 'video.list'],
    scopeSeparator: ',',
    pkce: 'none',
    clientIdParam: 'client_key',
    clientAuth: 'body',
    refresh: 'rotating',
    invalidGrant: 'oauth',
  },
  tumblr: {
    platform: 'tumblr',
    authorizeUrl: 'https://www.tumblr.com/oauth2/authorize',
    tokenUrl: 'https://api.tumblr.com/v2/oauth2/token',
    apiBase: 'https://api.tumblr.com',
    scopes: ['basic', 'write', 'offline_access'],
    scopeSeparator: ' ',
    pkce: 'none',
    clientIdParam: 'client_id',
    clientAuth: 'body',
    refresh: 'rotating',
    invalidGrant: 'oauth',
    selects: 'blog',
  },
  slack: {
    platform: 'slack',
    authorizeUrl: 'https://slack.com/oauth/v2/authorize',
    tokenUrl: 'https://slack.com/api/oauth.v2.access',
    revokeUrl: 'https://slack.com/api/auth.revoke',
    apiBase: 'https://slack.com/api',
    // files:write: images and videos go through the external upload; channels:/groups:read and :history:
    // conversations.info, .list and .history (channel check, channel choice, reconciliation and metrics).
    scopes: ['chat:write', 'chat:write.customize', 'channels:join', 'files:write', 'channels:read', 'groups:read', 'channels:history', 'groups:history', 'incoming-webhook'],
    scopeSeparator: ',',
    pkce: 'none',
    clientIdParam: 'client_id',
    clientAuth: 'body',
    refresh: 'rotating',
    invalidGrant: 'slack',
    selects: 'channel',
  },
  discord: {
    platform: 'discord',
    authorizeUrl: 'https://discord.com/oauth2/authorize',
    tokenUrl: 'https://discord.com/api/oauth2/token',
    revokeUrl: 'https://discord.com/api/oauth2/token/revoke',
    apiBase: 'https://discord.com/api/v10',
    scopes: ['identify', 'webhook.incoming'],
    scopeSeparator: ' ',
    pkce: 'none',
    clientIdParam: 'client_id',
    clientAuth: 'basic',
    refresh: 'reusable',
    invalidGrant: 'oauth',
    selects: 'channel',
  },
  mastodon: {
    platform: 'mastodon',
    authorizeUrl: '/oauth/authorize',
    tokenUrl: '/oauth/token',
    revokeUrl: '/oauth/revoke',
    apiBase: '',
    scopes: ['read:accounts', 'write:statuses', 'write:media'],
    scopeSeparator: ' ',
    pkce: 'S256',
    clientIdParam: 'client_id',
    clientAuth: 'body',
    refresh: 'none',
    invalidGrant: 'oauth',
    perInstance: true,
  },
};

/** Platforms connected by entering credentials instead of OAuth. */
export const CREDENTIAL_PLATFORMS = ['bluesky', 'telegram'] as const satisfies readonly Platform[];

export const oauthFacts = (platform: string): OAuthPlatformFacts | undefined => OAUTH_PLATFORMS[platform as Platform];

/** The config variable names of a platform's OAuth client (e.g. OAUTH_GOOGLE_BUSINESS_CLIENT_ID). */
export const clientEnvNames = (platform: Platform) => ({
  id: `OAUTH_${platform.toUpperCase()}_CLIENT_ID`,
  secret: `OAUTH_${platform.toUpperCase()}_CLIENT_SECRET`,
});

/**
 * Classifies a token-endpoint (or API) error answer: `invalid_grant` when the platform says the grant is
 * dead (disconnect), `checkpoint` when the user must act at the platform first (disconnect, with what
 * to do), `transient` for anything else (retry later).
 */
export function classifyGrantError(shape: InvalidGrantShape, status: number, body: unknown): { kind: 'invalid_grant' | 'checkpoint' | 'transient'; detail: string } {
  const b = (body ?? {}) as Record<string, unknown>;
  if (shape === 'slack') {
    const error = typeof b.error === 'string' ? b.error : '';
    if (['invalid_refresh_token', 'invalid_grant', 'token_revoked', 'token_expired', 'invalid_code', 'code_already_used'].includes(error)) return { kind: 'invalid_grant', detail: error };
    if (['account_inactive', 'team_access_not_granted', 'ekm_access_denied'].includes(error)) return { kind: 'checkpoint', detail: error };
    return { kind: 'transient', detail: error || `HTTP ${status}` };
  }
  if (shape === 'meta_graph') {
    const e = (b.error ?? {}) as { code?: number; error_subcode?: number; message?: string; type?: string };
    const detail = e.message ?? `HTTP ${status}`;
    // 459: user checkpointed; 464: unconfirmed user; 490: user enrolled in a blocking login checkpoint.
    if (e.code === 190 && [459, 464, 490].includes(e.error_subcode ?? 0)) return { kind: 'checkpoint', detail };
    // 190: access token invalid/expired/revoked (458 app removed, 460 password changed, 463 expired, 467 invalid).
    if (e.code === 190 || (e.type === 'OAuthException' && e.code === 100 && /code/i.test(detail))) return { kind: 'invalid_grant', detail };
    return { kind: 'transient', detail };
  }
  const error = typeof b.error === 'string' ? b.error : '';
  const description = typeof b.error_description === 'string' ? b.error_description : '';
  if ((status === 400 || status === 401) && (error === 'invalid_grant' || error === 'access_denied')) return { kind: 'invalid_grant', detail: [error, description].filter(Boolean).join(': ') };
  return { kind: 'transient', detail: [error || `HTTP ${status}`, description].filter(Boolean).join(': ') };
}
