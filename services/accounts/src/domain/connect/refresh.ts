import { createHash } from 'node:crypto';
import { OAUTH_PLATFORMS } from '@spa/platforms';
import type { Platform } from '@spa/vocabulary';
import type { SocialAccount } from '../model.js';
import type { ConnectDeps } from './deps.js';
import { PlatformAuthError } from './ports.js';
import { mergeTokens, openCredentials, withLease, type Credentials } from './save-account.js';

export type RefreshOutcome =
  | { kind: 'refreshed' | 'fresh'; account: SocialAccount; credentials: Credentials }
  | { kind: 'disconnected'; account: SocialAccount; reason: string }
  | { kind: 'failed'; error: string }
  | { kind: 'busy' };

/** What the user must do, per refusal class. */
function reasonOf(platform: string, err: PlatformAuthError): string {
  if (err.kind === 'checkpoint') {
    return `${platform} requires action on the account (security checkpoint, or consent withdrawn): sign in to ${platform}, complete what it asks, then reconnect the account. (${err.message})`;
  }
  return `${platform} no longer accepts this account's authorization (revoked, expired or password changed): reconnect the account. (${err.message})`;
}

/**
 * Refreshes one account's token, single-flight across replicas: the work runs under the account's
 * credential lease (claimed by unique insert), and re-reads the account once it holds it, so a
 * refresh that another replica just made is used rather than repeated (rotating refresh tokens die
 * on first use). `force` (a 401 at publish time) refreshes while the refused token is still the stored
 * one (or, without it, unless a refresh happened in the last 30 s).
 * Only the platform's invalid-grant or checkpoint answer disconnects (once, with the reason); any
 * other failure is logged and retried on the next run.
 */
export async function refreshAccount(deps: ConnectDeps, socialAccountId: number, opts: { force: boolean; waitMs: number; refusedTokenSha256?: string }): Promise<RefreshOutcome> {
  const result = await withLease(deps, socialAccountId, opts.waitMs, async (): Promise<RefreshOutcome> => {
    const account = await deps.connections.findAccount(socialAccountId);
    if (!account) return { kind: 'failed', error: 'no such account' };
    const credentials = openCredentials(deps, account.sealedCredentials);
    if (account.disconnected) return { kind: 'disconnected', account, reason: account.disconnectedReason || 'the account is disconnected' };
    const now = deps.clock.now().getTime();
    const due = account.tokenExpiresAt !== undefined && account.tokenExpiresAt.getTime() - now <= deps.connectConfig.refreshAheadMs;
    const recently = account.lastRefreshAt !== undefined && now - account.lastRefreshAt.getTime() < 30_000;
    const stillRefused = opts.refusedTokenSha256
      ? createHash('sha256')
          .update(credentials.access_token ?? '')
          .digest('hex') === opts.refusedTokenSha256
      : !recently;
    if (!(opts.force ? stillRefused : due)) return { kind: 'fresh', account, credentials };
    const platform = account.platform as Platform;
    try {
      const facts = OAUTH_PLATFORMS[platform];
      if (facts && !facts.longLived && !credentials.refresh_token) throw new PlatformAuthError('invalid_grant', 'the token was refused and there is no refresh token');
      // Credential platforms (Bluesky sessions, Telegram bot tokens) renew with what the user entered.
      const tokens = facts ? await deps.oauth.refresh(platform, { client: clientOf(deps, platform, credentials), credentials }) : await deps.credentialAuth.refresh(platform, credentials);
      const next = mergeTokens(credentials, tokens);
      await deps.connections.saveConnection(socialAccountId, {
        sealedCredentials: deps.secrets.encrypt(JSON.stringify(next)),
        tokenExpiresAt: tokens.expiresAt ?? null,
        lastRefreshAt: deps.clock.now(),
      });
      deps.log.info({ social_account_id: socialAccountId, platform, expires_at: tokens.expiresAt?.toISOString() ?? null }, 'token refreshed');
      return { kind: 'refreshed', account: { ...account, tokenExpiresAt: tokens.expiresAt }, credentials: next };
    } catch (err) {
      if (err instanceof PlatformAuthError && err.kind !== 'transient') {
        const reason = reasonOf(platform, err);
        await deps.connections.saveConnection(socialAccountId, { disconnected: true, disconnectedReason: reason });
        // The one notification of this failure: the account turns disconnected once, under the lease.
        deps.log.warn({ social_account_id: socialAccountId, workspace_id: account.workspaceId, platform, reason }, 'social account disconnected');
        return { kind: 'disconnected', account, reason };
      }
      const error = err instanceof Error ? err.message : String(err);
      deps.log.warn({ social_account_id: socialAccountId, platform, error }, 'token refresh failed; retried on the next run');
      return { kind: 'failed', error };
    }
  });
  return result === 'busy' ? { kind: 'busy' } : result;
}

function clientOf(deps: ConnectDeps, platform: Platform, credentials: Credentials): { id: string; secret: string } {
  if (OAUTH_PLATFORMS[platform]?.perInstance) return { id: credentials.client_id ?? '', secret: credentials.client_secret ?? '' };
  const client = deps.connectConfig.clients[platform];
  if (!client) throw new PlatformAuthError('transient', `${platform} has no OAuth client configured`);
  return client;
}

/** One pass of the background job: every connected account whose token expires soon is refreshed (skipping ones another replica holds). */
export async function refreshDueAccounts(deps: ConnectDeps, limit = 100): Promise<{ refreshed: number; failed: number; disconnected: number }> {
  const before = new Date(deps.clock.now().getTime() + deps.connectConfig.refreshAheadMs);
  const due = await deps.connections.dueForRefresh(before, limit);
  const counts = { refreshed: 0, failed: 0, disconnected: 0 };
  for (const { id } of due) {
    const outcome = await refreshAccount(deps, id, { force: false, waitMs: 0 });
    if (outcome.kind === 'refreshed') counts.refreshed += 1;
    if (outcome.kind === 'failed') counts.failed += 1;
    if (outcome.kind === 'disconnected') counts.disconnected += 1;
  }
  return counts;
}

/** Runs refreshDueAccounts every `intervalMs` until stopped. */
export function startRefreshJob(deps: ConnectDeps, intervalMs: number): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    running = refreshDueAccounts(deps)
      .catch((err: unknown) => deps.log.warn({ error: (err as Error).message }, 'token refresh pass failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  let timer = setTimeout(tick, intervalMs);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
