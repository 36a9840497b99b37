import { invalidParameters, notFound } from '@spa/errors';
import { sandboxBoardId } from '@spa/platforms';
import { PLATFORMS, PUBLISH_ERROR_CLASSES, type AccountHealth, type Platform, type PublishErrorClass } from '@spa/vocabulary';
import { connectedEvent, disconnectedEvent } from './account-events.js';
import { canRefresh, healthOf } from './account-health.js';
import type { SocialAccount } from './model.js';
import type { AccountsDeps } from './ports.js';
import { createDefaultSchedule } from './posting-schedules.js';
import { getWorkspace } from './workspaces.js';

export async function connectSocialAccount(deps: AccountsDeps, input: { workspaceId: number; platform: string; username: string; sandbox: boolean }): Promise<number> {
  await getWorkspace(deps, input.workspaceId);
  const problems: string[] = [];
  if (!(PLATFORMS as readonly string[]).includes(input.platform)) problems.push(`platform must be one of ${PLATFORMS.join(', ')}`);
  if (!input.username.trim()) problems.push('username must not be empty');
  if (problems.length) throw invalidParameters(problems);
  const id = await deps.ids.next('social_accounts');
  const username = input.username.trim();
  const account: SocialAccount = {
    id,
    workspaceId: input.workspaceId,
    platform: input.platform as Platform,
    username,
    sandbox: input.sandbox,
    disconnected: false,
    createdAt: deps.clock.now(),
    // Real accounts get their tokens from the OAuth flow (dashboard); sandbox accounts get tokens the sandbox accepts.
    sealedCredentials: input.sandbox ? deps.secrets.encrypt(JSON.stringify(sandboxCredentials(username))) : undefined,
  };
  await deps.socialAccounts.insert(account, connectedEvent(account, false, account.createdAt));
  await createDefaultSchedule(deps, input.workspaceId, id);
  return id;
}

export function listSocialAccounts(deps: AccountsDeps, workspaceId: number, ids: number[] = []): Promise<SocialAccount[]> {
  return deps.socialAccounts.list(workspaceId, ids.length ? ids : undefined);
}

/**
 * Credentials a sandbox account publishes with: the sandbox accepts `sandbox-<account>` tokens; the
 * platform-specific ids the connectors need are derived from the username.
 */
export function sandboxCredentials(username: string): Record<string, string> {
  const account = username.replace(/[^\w.-]/g, '_');
  return {
    access_token: `sandbox-${account}`,
    author_urn: `urn:li:person:${account}`,
    ig_user_id: `ig-${account}`,
    threads_user_id: `th-${account}`,
    page_id: `page-${account}`,
    // The first of the board ids the Pinterest stand-in lists for the account (its default board).
    board_id: sandboxBoardId(account, 1),
    open_id: `open-${account}`,
    privacy_level: 'SELF_ONLY',
    did: `did:plc:${account.toLowerCase()}`,
    handle: account,
    account_id: `acct-${account}`,
    location_id: `loc-${account}`,
    channel_id: `chan-${account}`,
    guild_id: `guild-${account}`,
    chat_id: `-100${Math.abs(hash(account))}`,
    channel_username: account,
    blog: account,
  };
}

function hash(text: string): number {
  let h = 0;
  for (const c of text) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
}

export interface PublishingAccount {
  account: SocialAccount;
  credentials: Record<string, string>;
}

/** The named accounts with their opened credentials (the publisher's view); an account without credentials has none. */
export async function publishingCredentials(deps: AccountsDeps, workspaceId: number, ids: number[]): Promise<PublishingAccount[]> {
  const accounts = await deps.socialAccounts.list(workspaceId, ids);
  return accounts.map((account) => ({
    account,
    credentials: account.sealedCredentials ? (JSON.parse(deps.secrets.decrypt(account.sealedCredentials)) as Record<string, string>) : {},
  }));
}

/**
 * A platform refused the account's token at publish (`reason`: it had expired, or was revoked): the account is
 * disconnected with that reason, announced as `account.disconnected` when it was connected until now.
 */
export async function markDisconnected(deps: AccountsDeps, workspaceId: number, socialAccountId: number, reason: 'expired' | 'revoked' = 'revoked'): Promise<void> {
  const [account] = await deps.socialAccounts.list(workspaceId, [socialAccountId]);
  if (!account) throw notFound(`Social account ${socialAccountId}`);
  const message =
    reason === 'expired'
      ? `${account.platform} refused this account's token because it expired: reconnect the account.`
      : `${account.platform} no longer accepts this account's authorization (revoked or password changed): reconnect the account.`;
  const announce = account.disconnected ? undefined : disconnectedEvent(account, reason, message, deps.clock.now());
  const why = account.disconnected ? undefined : { cause: reason, message, announce };
  if (!(await deps.socialAccounts.markDisconnected(workspaceId, socialAccountId, why))) throw notFound(`Social account ${socialAccountId}`);
}

/** Keeps the class of a failed publish to the account (its health's `last_publish_error`). */
export async function recordPublishError(deps: AccountsDeps, workspaceId: number, socialAccountId: number, errorClass: string, at: Date): Promise<void> {
  if (!(PUBLISH_ERROR_CLASSES as readonly string[]).includes(errorClass)) throw invalidParameters([`error_class must be one of ${PUBLISH_ERROR_CLASSES.join(', ')}`]);
  const [account] = await deps.socialAccounts.list(workspaceId, [socialAccountId]);
  if (!account) throw notFound(`Social account ${socialAccountId}`);
  // A refused token: this service knows whether it had expired (the publisher only saw the refusal).
  const expired = account.disconnectCause === 'expired' || (account.tokenExpiresAt !== undefined && account.tokenExpiresAt.getTime() <= at.getTime());
  const cls = errorClass === 'revoked' || errorClass === 'expired' ? (expired ? 'expired' : 'revoked') : (errorClass as PublishErrorClass);
  if (!(await deps.socialAccounts.recordPublishError(workspaceId, socialAccountId, cls, at))) throw notFound(`Social account ${socialAccountId}`);
}

/** The account's health now (its token's renewability read from its credentials when not yet recorded). */
export function accountHealth(deps: Pick<AccountsDeps, 'secrets' | 'clock'>, account: SocialAccount): AccountHealth {
  const refreshable = account.refreshable ?? canRefresh(account.platform, account.sealedCredentials ? (JSON.parse(deps.secrets.decrypt(account.sealedCredentials)) as Record<string, string>) : {});
  return healthOf(account, deps.clock.now(), refreshable);
}
