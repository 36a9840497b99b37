import { OAUTH_PLATFORMS } from '@spa/platforms';
import { EXPIRING_WITHIN_MS, type AccountHealth, type DisconnectReason, type Platform } from '@spa/vocabulary';
import type { DisconnectCause, SocialAccount } from './model.js';

/**
 * Whether the account's token can be renewed without the user: a Graph long-lived exchange, a refresh token,
 * or credentials the platform renews a session from (Bluesky, Telegram). A token that never expires needs none.
 */
export function canRefresh(platform: Platform, credentials: Record<string, string>): boolean {
  const facts = OAUTH_PLATFORMS[platform];
  if (!facts) return true;
  return !!facts.longLived || !!credentials.refresh_token;
}

/**
 * The account's connection health at `now`: `disconnected` (any disconnection but a refused renewal),
 * `reauth_required` (the platform refused to renew it: invalid_grant), `expiring` (a token that cannot be
 * renewed expires within 7 days), else `ok`. A renewal that failed for a passing reason leaves it `ok`.
 */
export function healthOf(account: SocialAccount, now: Date, refreshable: boolean): AccountHealth {
  if (account.disconnected) return account.disconnectCause === 'invalid_grant' ? 'reauth_required' : 'disconnected';
  if (!refreshable && account.tokenExpiresAt && account.tokenExpiresAt.getTime() - now.getTime() <= EXPIRING_WITHIN_MS) return 'expiring';
  return 'ok';
}

/** The public reason of a disconnection (a refused renewal is `revoked`; one from before causes were kept: unknown). */
export function publicReason(cause: DisconnectCause | undefined): DisconnectReason | undefined {
  return cause === 'invalid_grant' ? 'revoked' : cause;
}
