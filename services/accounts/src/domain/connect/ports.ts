import type { Platform, PublishErrorClass, RefreshOutcome } from '@spa/vocabulary';
import type { AccountEvent } from '../account-events.js';
import type { DisconnectCause, SocialAccount } from '../model.js';

/** Tokens as a platform's token endpoint gave them (never logged). */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string | undefined;
  expiresAt?: Date | undefined;
  /** Everything else the answer carried that identifies the account (TikTok open_id, Slack webhook channel, Discord webhook…). */
  extras: Record<string, unknown>;
}

/** Who the tokens belong to, and what the connector needs besides the token. */
export interface Identity {
  externalId: string;
  username: string;
  displayName: string;
  avatarUrl: string;
  /** Credentials besides access/refresh tokens (page_id, author_urn, channel_id, instance_url…). */
  credentials: Record<string, string>;
  /** The access token the connector must use when it is not the user's (a Facebook page token). */
  accessToken?: string | undefined;
  /** Set when a selection step is missing (no page token, no channel): the account is not connected, and this says what to do. */
  incomplete?: string | undefined;
}

/** A refusal from the platform, classified: only `invalid_grant` and `checkpoint` disconnect. */
export class PlatformAuthError extends Error {
  override name = 'PlatformAuthError';
  constructor(
    readonly kind: 'invalid_grant' | 'checkpoint' | 'transient',
    message: string,
  ) {
    super(message);
  }
}

export interface OAuthClient {
  /** Registers the app on a Mastodon instance (per-instance), answering its client. */
  registerApp?(instanceUrl: string, redirectUri: string): Promise<{ clientId: string; clientSecret: string }>;
  authorizationUrl(platform: Platform, p: { clientId: string; redirectUri: string; state: string; codeChallenge: string | undefined; instanceUrl?: string | undefined }): string;
  exchangeCode(
    platform: Platform,
    p: { client: { id: string; secret: string }; code: string; redirectUri: string; codeVerifier: string | undefined; instanceUrl?: string | undefined },
  ): Promise<TokenSet>;
  identify(platform: Platform, tokens: TokenSet, instanceUrl?: string): Promise<Identity>;
  /** Renews the token (refresh grant, or the Graph long-lived exchange). */
  refresh(platform: Platform, p: { client: { id: string; secret: string }; credentials: Record<string, string> }): Promise<TokenSet>;
  /** Revokes at the platform; false when it has no revocation endpoint. */
  revoke(platform: Platform, p: { client: { id: string; secret: string } | undefined; credentials: Record<string, string> }): Promise<boolean>;
}

/** An OAuth state as stored: bound to workspace, platform and the PKCE verifier. */
export interface OAuthStateRecord {
  id: string;
  workspaceId: number;
  platform: Platform;
  /** Sealed JSON: {verifier, client_id?, client_secret?} (Mastodon's client is per instance). */
  sealed: string;
  instanceUrl?: string | undefined;
  createdAt: Date;
  expiresAt: Date;
}

export interface ConnectionStore {
  insertState(s: OAuthStateRecord): Promise<void>;
  findState(id: string): Promise<OAuthStateRecord | null>;
  /** Claims a state's single use by unique insert; false when it was used before. */
  claimStateUse(id: string, at: Date): Promise<boolean>;
  /** Claims (workspace, platform, external id) for an account; answers the account that holds it (maybe another, earlier one). */
  claimIdentity(key: string, socialAccountId: number): Promise<number>;
  /** Takes the account's credential lease (single-flight refresh/reconnect); false while another holder's lease is live. */
  acquireLease(socialAccountId: number, holder: string, now: Date, ttlMs: number): Promise<boolean>;
  releaseLease(socialAccountId: number, holder: string): Promise<void>;
  /** Writes the account's connection (only the lease holder writes). */
  saveConnection(socialAccountId: number, change: ConnectionChange): Promise<void>;
  /**
   * Connected accounts to refresh: those whose token expires before `before`, except those whose token cannot be
   * renewed (`refreshable: false`), which are only due once it has expired (`now`).
   */
  dueForRefresh(before: Date, limit: number, now?: Date): Promise<Array<{ id: number; workspaceId: number }>>;
  /** Connected accounts whose token may not be renewable (`refreshable` not true) and expires between `now` and `before`. */
  expiringBetween(now: Date, before: Date, limit: number): Promise<SocialAccount[]>;
  findAccount(socialAccountId: number): Promise<SocialAccount | null>;
}

export interface ConnectionChange {
  username?: string;
  displayName?: string;
  avatarUrl?: string;
  externalId?: string;
  sealedCredentials?: string | null;
  tokenExpiresAt?: Date | null;
  connectedAt?: Date;
  lastRefreshAt?: Date;
  disconnected?: boolean;
  disconnectedReason?: string;
  disconnectCause?: DisconnectCause | null;
  refreshable?: boolean;
  lastRefreshTryAt?: Date;
  lastRefreshOutcome?: RefreshOutcome;
  lastRefreshError?: string | null;
  lastPublishErrorClass?: PublishErrorClass | null;
  lastPublishErrorAt?: Date | null;
  expiringWarnedFor?: Date | null;
  /** The public event the change announces: queued in the outbox before the change, published once it landed. */
  announce?: AccountEvent;
}

/** The platform refused what the user entered: names the field and says what to do (nothing is stored). */
export class CredentialRejected extends Error {
  override name = 'CredentialRejected';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Credential entry (platforms whose way is not OAuth), each checked with the platform itself. Throws
 * CredentialRejected for what the user must correct, PlatformAuthError('transient') when the platform
 * could not be asked.
 */
export interface CredentialAuth {
  /** Bluesky: `com.atproto.server.createSession` on the PDS with an app password (a main password is refused). */
  blueskySession(p: { pdsUrl: string; identifier: string; appPassword: string }): Promise<{ tokens: TokenSet; identity: Identity }>;
  /** Telegram: `getMe` (the token), `getChat` (the chat) and `getChatMember` (the bot may post there). */
  telegramBot(p: { botToken: string; chatId: string }): Promise<{ tokens: TokenSet; identity: Identity }>;
  /**
   * Renews stored credentials: Bluesky `refreshSession` with the refresh JWT, or a new session from the
   * app password once the refresh JWT is dead; Telegram bot tokens do not expire (a refused one is dead).
   * The platform's refusal is PlatformAuthError('invalid_grant' | 'checkpoint').
   */
  refresh(platform: Platform, credentials: Record<string, string>): Promise<TokenSet>;
}
