import { AppError } from '@spa/errors';
import type { Platform } from '@spa/vocabulary';
import type { CommunitiesSource, Community } from '../connectors/communities.js';
import type { PinterestBoard } from '../connectors/pinterest.js';
import type { TikTokCreatorInfo } from '../connectors/tiktok.js';
import { ConnectorError, type TargetAccount } from '../connectors/types.js';
import type { AccountsPort } from './ports.js';

/** Read-only lookups a platform answers about one connected account (outside publishing). */
export interface AccountLookupsDeps {
  accounts: AccountsPort;
  tiktok: { creatorInfo(target: TargetAccount): Promise<TikTokCreatorInfo> };
  pinterest: { boards(target: TargetAccount): Promise<PinterestBoard[]> };
  /** The platforms whose API lists the places an account can post into. */
  communities: Partial<Record<Platform, CommunitiesSource>>;
}

/** The workspace's account on `platform`; NOT_FOUND when it is another workspace's, or on another platform. */
async function accountOn(deps: AccountLookupsDeps, workspaceId: number, socialAccountId: number, platform: Platform, name: string): Promise<TargetAccount> {
  const [target] = await deps.accounts.targets(workspaceId, [socialAccountId]);
  if (!target || target.platform !== platform) throw new AppError('NOT_FOUND', `${name} account ${socialAccountId} not found`);
  return target;
}

/** A platform's failure as the API's error: a refused token disconnects the account. */
async function platformCall<T>(deps: AccountLookupsDeps, workspaceId: number, target: TargetAccount, name: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof ConnectorError)) throw err;
    switch (err.kind) {
      case 'auth':
        await deps.accounts.markDisconnected(workspaceId, target.socialAccountId);
        throw new AppError('INVALID_STATE', `${name} refused the credentials of social account ${target.socialAccountId}; reconnect it`);
      case 'rate_limited':
        throw new AppError('RATE_LIMIT_EXCEEDED', `${name}'s rate limit for this account was reached; retry later`, { retryAfter: Math.max(1, Math.ceil((err.retryAfterMs ?? 60_000) / 1000)) });
      case 'rejected':
        throw new AppError('INVALID_STATE', `${name} refused the request: ${err.message}`);
      default:
        throw new AppError('SERVICE_UNAVAILABLE', `${name} did not answer; retry later`);
    }
  }
}

export async function tiktokCreatorInfo(deps: AccountLookupsDeps, workspaceId: number, socialAccountId: number): Promise<TikTokCreatorInfo> {
  const target = await accountOn(deps, workspaceId, socialAccountId, 'tiktok', 'TikTok');
  return platformCall(deps, workspaceId, target, 'TikTok', () => deps.tiktok.creatorInfo(target));
}

export async function pinterestBoards(deps: AccountLookupsDeps, workspaceId: number, socialAccountId: number): Promise<PinterestBoard[]> {
  const target = await accountOn(deps, workspaceId, socialAccountId, 'pinterest', 'Pinterest');
  return platformCall(deps, workspaceId, target, 'Pinterest', () => deps.pinterest.boards(target));
}

const PLATFORM_NAMES: Partial<Record<Platform, string>> = { discord: 'Discord', slack: 'Slack', telegram: 'Telegram' };

/**
 * The places the account can post into, from its platform (Discord channels of its server, Slack channels
 * its bot is in, its Telegram chat). Platforms without such a list: PLATFORM_UNSUPPORTED.
 */
export async function listCommunities(deps: AccountLookupsDeps, workspaceId: number, socialAccountId: number): Promise<Community[]> {
  const [target] = await deps.accounts.targets(workspaceId, [socialAccountId]);
  if (!target) throw new AppError('NOT_FOUND', `Social account ${socialAccountId} not found`);
  const source = deps.communities[target.platform];
  if (!source) {
    throw new AppError('PLATFORM_UNSUPPORTED', `${target.platform} has no communities to list: communities are Discord channels, Slack channels and Telegram chats`);
  }
  const name = PLATFORM_NAMES[target.platform] ?? target.platform;
  return platformCall(deps, workspaceId, target, name, () => source.communities(target));
}
