import { DisconnectReason, PublishErrorClass, RefreshOutcome, type SocialAccount as SocialAccountMessage } from '@spa/contracts/accounts/v1/accounts';
import { accountHealthCodec, disconnectReasonCodec, publishErrorClassCodec, refreshOutcomeCodec } from '@spa/contracts/codecs';
import { publicReason } from '../domain/account-health.js';
import { notFound } from '@spa/errors';
import type { ConnectDeps } from '../domain/connect/deps.js';
import { connectWithCredentials } from '../domain/connect/credential-connect.js';
import { disconnectAccount } from '../domain/connect/disconnect.js';
import { completeConnect, startConnect } from '../domain/connect/oauth-connect.js';
import { refreshAccount } from '../domain/connect/refresh.js';
import type { SocialAccount } from '../domain/model.js';
import { accountHealth, listSocialAccounts } from '../domain/social-accounts.js';

/** The account as it travels, with its health (computed now). */
export const socialAccountMessage = (deps: Pick<ConnectDeps, 'secrets' | 'clock'>, a: SocialAccount): SocialAccountMessage => ({
  id: a.id,
  platform: a.platform,
  username: a.username,
  sandbox: a.sandbox,
  disconnected: a.disconnected,
  createdAt: a.createdAt.toISOString(),
  displayName: a.displayName ?? '',
  avatarUrl: a.avatarUrl ?? '',
  connectedAt: (a.connectedAt ?? a.createdAt).toISOString(),
  tokenExpiresAt: a.tokenExpiresAt?.toISOString(),
  disconnectedReason: a.disconnectedReason ?? '',
  health: accountHealthCodec.toProto(accountHealth(deps, a)),
  lastRefreshAt: a.lastRefreshTryAt?.toISOString(),
  lastRefreshOutcome: a.lastRefreshOutcome ? refreshOutcomeCodec.toProto(a.lastRefreshOutcome) : RefreshOutcome.REFRESH_OUTCOME_UNSPECIFIED,
  lastRefreshError: a.lastRefreshError,
  lastPublishErrorClass: a.lastPublishErrorClass ? publishErrorClassCodec.toProto(a.lastPublishErrorClass) : PublishErrorClass.PUBLISH_ERROR_CLASS_UNSPECIFIED,
  lastPublishErrorAt: a.lastPublishErrorAt?.toISOString(),
  disconnectReason: a.disconnected && a.disconnectCause ? disconnectReasonCodec.toProto(publicReason(a.disconnectCause)!) : DisconnectReason.DISCONNECT_REASON_UNSPECIFIED,
});

/** The connect-flow RPCs (OAuth start and callback, disconnect, refresh after a 401, one account). */
export function connectHandlers(deps: ConnectDeps) {
  return {
    getSocialAccount: async (req: { workspaceId: number; socialAccountId: number }) => {
      const [account] = await listSocialAccounts(deps, req.workspaceId, [req.socialAccountId]);
      if (!account) throw notFound(`Social account ${req.socialAccountId}`);
      return { socialAccount: socialAccountMessage(deps, account) };
    },
    startConnect: async (req: { workspaceId: number; platform: string; instanceUrl: string }) => {
      const { url, expiresAt } = await startConnect(deps, { workspaceId: req.workspaceId, platform: req.platform, instanceUrl: req.instanceUrl || undefined });
      return { authorizationUrl: url, expiresAt: expiresAt.toISOString() };
    },
    completeConnect: async (req: { platform: string; state: string; code: string; error: string; errorDescription: string }) => {
      const r = await completeConnect(deps, req);
      return { socialAccountId: r.socialAccountId, workspaceId: r.workspaceId, platform: r.platform, username: r.username, displayName: r.displayName, reconnected: r.reconnected };
    },
    connectWithCredentials: async (req: { workspaceId: number; platform: string; identifier: string; appPassword: string; pdsUrl: string; botToken: string; chatId: string }) => {
      const r = await connectWithCredentials(deps, req);
      return { socialAccountId: r.socialAccountId, platform: r.platform, username: r.username, displayName: r.displayName, reconnected: r.reconnected };
    },
    disconnectSocialAccount: async (req: { workspaceId: number; socialAccountId: number }) => disconnectAccount(deps, req.workspaceId, req.socialAccountId),
    refreshSocialAccount: async (req: { socialAccountId: number; refusedTokenSha256: string }) => {
      const outcome = await refreshAccount(deps, req.socialAccountId, { force: true, waitMs: 10_000, refusedTokenSha256: req.refusedTokenSha256 || undefined });
      switch (outcome.kind) {
        case 'refreshed':
        case 'fresh':
          return {
            account: {
              socialAccountId: outcome.account.id,
              platform: outcome.account.platform,
              username: outcome.account.username,
              sandbox: outcome.account.sandbox,
              credentials: outcome.credentials,
            },
            disconnected: false,
            reason: '',
          };
        case 'disconnected':
          return { account: undefined, disconnected: true, reason: outcome.reason };
        case 'failed':
          return { account: undefined, disconnected: false, reason: `refresh failed: ${outcome.error}` };
        case 'busy':
          return { account: undefined, disconnected: false, reason: 'another refresh of this account is still running' };
      }
    },
  };
}
