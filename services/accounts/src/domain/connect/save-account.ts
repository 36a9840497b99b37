import type { Platform } from '@spa/vocabulary';
import { randomUUID } from 'node:crypto';
import { AppError } from '@spa/errors';
import { connectedEvent } from '../account-events.js';
import { canRefresh } from '../account-health.js';
import { createDefaultSchedule } from '../posting-schedules.js';
import type { ConnectDeps } from './deps.js';
import type { Identity, TokenSet } from './ports.js';

const LEASE_MS = 30_000;

/** Credentials as stored (sealed): tokens plus what the connector needs. */
export type Credentials = Record<string, string>;

export function openCredentials(deps: ConnectDeps, sealed: string | undefined): Credentials {
  return sealed ? (JSON.parse(deps.secrets.decrypt(sealed)) as Credentials) : {};
}

/**
 * Merges fresh tokens into stored credentials. A refresh token is only ever replaced by a new
 * non-empty one: a platform that answers without one (Google on re-consent, a reconnect) keeps the
 * good one it gave before.
 */
export function mergeTokens(current: Credentials, tokens: TokenSet, identity?: Identity): Credentials {
  const next: Credentials = { ...current, ...(identity?.credentials ?? {}) };
  if (identity?.accessToken) {
    // The connector posts with the page's token; the user's token renews it.
    next.access_token = identity.accessToken;
    next.user_access_token = tokens.accessToken;
  } else if (current.user_access_token && !identity) {
    next.user_access_token = tokens.accessToken;
  } else {
    next.access_token = tokens.accessToken;
  }
  if (tokens.refreshToken) next.refresh_token = tokens.refreshToken;
  return next;
}

/** Runs `work` holding the account's credential lease (single-flight across replicas); waits up to `waitMs` for another holder. */
export async function withLease<T>(deps: ConnectDeps, socialAccountId: number, waitMs: number, work: () => Promise<T>): Promise<T | 'busy'> {
  const holder = randomUUID();
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (await deps.connections.acquireLease(socialAccountId, holder, deps.clock.now(), LEASE_MS)) break;
    if (Date.now() >= deadline) return 'busy';
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    return await work();
  } finally {
    await deps.connections.releaseLease(socialAccountId, holder).catch(() => undefined);
  }
}

/**
 * Stores a connected platform account: the first connect of (workspace, platform, platform account)
 * creates the social account, a reconnect keeps its id, clears `disconnected` and merges the tokens.
 */
export async function saveConnectedAccount(
  deps: ConnectDeps,
  input: { workspaceId: number; platform: Platform; identity: Identity; tokens: TokenSet; extra?: Credentials },
): Promise<{ socialAccountId: number; reconnected: boolean }> {
  const { workspaceId, platform, identity, tokens } = input;
  if (!identity.externalId) throw new AppError('INVALID_STATE', `${platform} did not say which account was connected`);
  const candidate = await deps.ids.next('social_accounts');
  const key = `${workspaceId}:${platform}:${identity.externalId}`;
  const socialAccountId = await deps.connections.claimIdentity(key, candidate);
  const reconnected = socialAccountId !== candidate;
  const now = deps.clock.now();
  if (!reconnected) {
    await deps.socialAccounts.insert({
      id: socialAccountId,
      workspaceId,
      platform,
      username: identity.username || identity.externalId,
      sandbox: false,
      disconnected: false,
      createdAt: now,
      sealedCredentials: deps.secrets.encrypt(JSON.stringify(mergeTokens(input.extra ?? {}, tokens, identity))),
    });
    await createDefaultSchedule(deps, workspaceId, socialAccountId);
  }
  const result = await withLease(deps, socialAccountId, 15_000, async () => {
    const existing = reconnected ? await deps.connections.findAccount(socialAccountId) : null;
    const credentials = mergeTokens({ ...(existing ? openCredentials(deps, existing.sealedCredentials) : {}), ...(input.extra ?? {}) }, tokens, identity);
    await deps.connections.saveConnection(socialAccountId, {
      username: identity.username || identity.externalId,
      displayName: identity.displayName,
      avatarUrl: identity.avatarUrl,
      externalId: identity.externalId,
      sealedCredentials: deps.secrets.encrypt(JSON.stringify(credentials)),
      tokenExpiresAt: tokens.expiresAt ?? null,
      connectedAt: now,
      disconnected: false,
      disconnectedReason: '',
      disconnectCause: null,
      refreshable: canRefresh(platform, credentials),
      expiringWarnedFor: null,
      lastPublishErrorClass: null,
      lastPublishErrorAt: null,
      announce: connectedEvent({ id: socialAccountId, workspaceId, platform, username: identity.username || identity.externalId, sandbox: false }, reconnected, now),
    });
  });
  if (result === 'busy') throw new AppError('SERVICE_UNAVAILABLE', 'The account is being refreshed right now; try connecting again in a moment');
  deps.log.info({ social_account_id: socialAccountId, workspace_id: workspaceId, platform, reconnected }, 'social account connected');
  return { socialAccountId, reconnected };
}
