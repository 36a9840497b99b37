import { invalidParameters, notFound } from '@spa/errors';
import { sandboxBoardId } from '@spa/platforms';
import { PLATFORMS, type Platform } from '@spa/vocabulary';
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
  await deps.socialAccounts.insert({
    id,
    workspaceId: input.workspaceId,
    platform: input.platform as Platform,
    username,
    sandbox: input.sandbox,
    disconnected: false,
    createdAt: deps.clock.now(),
    // Real accounts get their tokens from the OAuth flow (dashboard); sandbox accounts get tokens the sandbox accepts.
    sealedCredentials: input.sandbox ? deps.secrets.encrypt(JSON.stringify(sandboxCredentials(username))) : undefined,
  });
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

export async function markDisconnected(deps: AccountsDeps, workspaceId: number, socialAccountId: number): Promise<void> {
  if (!(await deps.socialAccounts.markDisconnected(workspaceId, socialAccountId))) throw notFound(`Social account ${socialAccountId}`);
}
