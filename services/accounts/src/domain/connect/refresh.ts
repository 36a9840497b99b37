import { createHash } from 'node:crypto';
import { OAUTH_PLATFORMS } from '@spa/platforms';
import { EXPIRING_WITHIN_MS, type Platform } from '@spa/vocabulary';
import { disconnectedEvent, expiringEvent, reauthRequiredEvent } from '../account-events.js';
import { canRefresh } from '../account-health.js';
import type { DisconnectCause, SocialAccount } from '../model.js';
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
    const now = deps.clock.now();
    const refreshable = canRefresh(account.platform, credentials);
    const expired = account.tokenExpiresAt !== undefined && account.tokenExpiresAt.getTime() <= now.getTime();
    // A token that cannot be renewed is used until it expires (the refresh job warns ahead: account.expiring).
    const due = account.tokenExpiresAt !== undefined && (refreshable ? account.tokenExpiresAt.getTime() - now.getTime() <= deps.connectConfig.refreshAheadMs : expired);
    const recently = account.lastRefreshAt !== undefined && now.getTime() - account.lastRefreshAt.getTime() < 30_000;
    const stillRefused = opts.refusedTokenSha256
      ? createHash('sha256')
          .update(credentials.access_token ?? '')
          .digest('hex') === opts.refusedTokenSha256
      : !recently;
    if (!(opts.force ? stillRefused : due)) return { kind: 'fresh', account, credentials };
    const platform = account.platform as Platform;
    if (!refreshable) {
      // Nothing to renew it with: the token expired (or, refused before its time, was revoked); the user reconnects.
      const reason = expired ? 'expired' : 'revoked';
      const message = `${platform} gives no way to renew this account's authorization${expired ? ' and it expired' : ', and the platform refused it'}: reconnect the account.`;
      return disconnect(deps, account, { cause: reason, message, outcome: undefined });
    }
    try {
      const facts = OAUTH_PLATFORMS[platform];
      // Credential platforms (Bluesky sessions, Telegram bot tokens) renew with what the user entered.
      const tokens = facts ? await deps.oauth.refresh(platform, { client: clientOf(deps, platform, credentials), credentials }) : await deps.credentialAuth.refresh(platform, credentials);
      const next = mergeTokens(credentials, tokens);
      const at = deps.clock.now();
      await deps.connections.saveConnection(socialAccountId, {
        sealedCredentials: deps.secrets.encrypt(JSON.stringify(next)),
        tokenExpiresAt: tokens.expiresAt ?? null,
        lastRefreshAt: at,
        lastRefreshTryAt: at,
        lastRefreshOutcome: 'ok',
        lastRefreshError: null,
        refreshable: canRefresh(platform, next),
      });
      deps.log.info({ social_account_id: socialAccountId, platform, expires_at: tokens.expiresAt?.toISOString() ?? null }, 'token refreshed');
      return { kind: 'refreshed', account: { ...account, tokenExpiresAt: tokens.expiresAt }, credentials: next };
    } catch (err) {
      if (err instanceof PlatformAuthError && err.kind !== 'transient') {
        return disconnect(deps, account, { cause: err.kind === 'checkpoint' ? 'checkpoint' : 'invalid_grant', message: reasonOf(platform, err), outcome: 'refused' });
      }
      const error = err instanceof Error ? err.message : String(err);
      // A passing failure: the account stays ok, and the next run tries again.
      await deps.connections.saveConnection(socialAccountId, { lastRefreshTryAt: deps.clock.now(), lastRefreshOutcome: 'failed', lastRefreshError: error.slice(0, 500) });
      deps.log.warn({ social_account_id: socialAccountId, platform, error }, 'token refresh failed; retried on the next run');
      return { kind: 'failed', error };
    }
  });
  return result === 'busy' ? { kind: 'busy' } : result;
}

/**
 * Marks the account disconnected (once, under its lease) with its cause, announcing it: a refused renewal
 * (invalid_grant) as `account.reauth_required`, anything else as `account.disconnected` with its reason.
 */
async function disconnect(deps: ConnectDeps, account: SocialAccount, why: { cause: DisconnectCause; message: string; outcome: 'refused' | undefined }): Promise<RefreshOutcome> {
  const at = deps.clock.now();
  const announce = why.cause === 'invalid_grant' ? reauthRequiredEvent(account, why.message, at) : disconnectedEvent(account, why.cause, why.message, at);
  await deps.connections.saveConnection(account.id, {
    disconnected: true,
    disconnectedReason: why.message,
    disconnectCause: why.cause,
    ...(why.outcome ? { lastRefreshTryAt: at, lastRefreshOutcome: why.outcome, lastRefreshError: why.message.slice(0, 500) } : {}),
    announce,
  });
  // The one notification of this failure: the account turns disconnected once, under the lease.
  deps.log.warn({ social_account_id: account.id, workspace_id: account.workspaceId, platform: account.platform, reason: why.message, cause: why.cause }, 'social account disconnected');
  return { kind: 'disconnected', account, reason: why.message };
}

function clientOf(deps: ConnectDeps, platform: Platform, credentials: Credentials): { id: string; secret: string } {
  if (OAUTH_PLATFORMS[platform]?.perInstance) return { id: credentials.client_id ?? '', secret: credentials.client_secret ?? '' };
  const client = deps.connectConfig.clients[platform];
  if (!client) throw new PlatformAuthError('transient', `${platform} has no OAuth client configured`);
  return client;
}

/** One pass of the background job: every connected account whose token expires soon is refreshed (skipping ones another replica holds). */
export async function refreshDueAccounts(deps: ConnectDeps, limit = 100): Promise<{ refreshed: number; failed: number; disconnected: number; warned: number }> {
  const now = deps.clock.now();
  const before = new Date(now.getTime() + deps.connectConfig.refreshAheadMs);
  const due = await deps.connections.dueForRefresh(before, limit, now);
  const counts = { refreshed: 0, failed: 0, disconnected: 0, warned: 0 };
  for (const { id } of due) {
    const outcome = await refreshAccount(deps, id, { force: false, waitMs: 0 });
    if (outcome.kind === 'refreshed') counts.refreshed += 1;
    if (outcome.kind === 'failed') counts.failed += 1;
    if (outcome.kind === 'disconnected') counts.disconnected += 1;
  }
  counts.warned = await warnExpiring(deps, limit);
  return counts;
}

/**
 * Warns once per expiry about each connected account whose token cannot be renewed (no refresh token, e.g.
 * LinkedIn's 60-day tokens) and expires within 7 days: `account.expiring`, in the write that records the warning.
 * Answers how many were warned.
 */
export async function warnExpiring(deps: ConnectDeps, limit = 100): Promise<number> {
  const now = deps.clock.now();
  const soon = await deps.connections.expiringBetween(now, new Date(now.getTime() + EXPIRING_WITHIN_MS), limit);
  let warned = 0;
  for (const candidate of soon) {
    const expiresAt = candidate.tokenExpiresAt!;
    if (candidate.expiringWarnedFor?.getTime() === expiresAt.getTime()) continue;
    const done = await withLease(deps, candidate.id, 0, async () => {
      const account = await deps.connections.findAccount(candidate.id);
      if (!account || account.disconnected || account.tokenExpiresAt?.getTime() !== expiresAt.getTime() || account.expiringWarnedFor?.getTime() === expiresAt.getTime()) return false;
      const refreshable = canRefresh(account.platform, openCredentials(deps, account.sealedCredentials));
      if (refreshable) {
        // Known from now on: not looked at again.
        await deps.connections.saveConnection(account.id, { refreshable: true });
        return false;
      }
      const at = deps.clock.now();
      await deps.connections.saveConnection(account.id, { refreshable: false, expiringWarnedFor: expiresAt, announce: expiringEvent(account, expiresAt, at) });
      deps.log.info({ social_account_id: account.id, workspace_id: account.workspaceId, expires_at: expiresAt.toISOString() }, 'social account expiring: warned');
      return true;
    });
    if (done === true) warned += 1;
  }
  return warned;
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
