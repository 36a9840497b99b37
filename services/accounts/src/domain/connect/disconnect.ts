import { AppError, notFound } from '@spa/errors';
import { OAUTH_PLATFORMS } from '@spa/platforms';
import type { Platform } from '@spa/vocabulary';
import { disconnectedEvent } from '../account-events.js';
import type { ConnectDeps } from './deps.js';
import { openCredentials, withLease } from './save-account.js';

/**
 * Disconnects an account: revokes its token at the platform where the platform has a revocation
 * endpoint, deletes the stored credentials and marks it disconnected (posts still scheduled for it
 * then fail at their time with a clear error). A revocation the platform refuses or cannot be reached
 * for is logged; the credentials are deleted anyway.
 */
export async function disconnectAccount(deps: ConnectDeps, workspaceId: number, socialAccountId: number): Promise<{ revokedAtPlatform: boolean }> {
  const account = await deps.connections.findAccount(socialAccountId);
  // workspaceId 0: an operator naming the account alone (spa-admin account disconnect --account A).
  if (!account || (workspaceId !== 0 && account.workspaceId !== workspaceId)) throw notFound(`Social account ${socialAccountId}`);
  const result = await withLease(deps, socialAccountId, 15_000, async () => {
    const fresh = (await deps.connections.findAccount(socialAccountId)) ?? account;
    const credentials = openCredentials(deps, fresh.sealedCredentials);
    const platform = fresh.platform as Platform;
    const facts = OAUTH_PLATFORMS[platform];
    let revoked = false;
    if (facts && !fresh.sandbox && Object.keys(credentials).length) {
      const client = facts.perInstance ? { id: credentials.client_id ?? '', secret: credentials.client_secret ?? '' } : deps.connectConfig.clients[platform];
      revoked = await deps.oauth.revoke(platform, { client, credentials }).catch((err: unknown) => {
        deps.log.warn({ social_account_id: socialAccountId, platform, error: (err as Error).message }, 'revocation at the platform failed; credentials deleted anyway');
        return false;
      });
    }
    const message = 'Disconnected by an operator: reconnect the account to publish again.';
    await deps.connections.saveConnection(socialAccountId, {
      sealedCredentials: null,
      tokenExpiresAt: null,
      disconnected: true,
      disconnectedReason: message,
      disconnectCause: 'by_user',
      // Announced when it was connected: disconnecting a disconnected account changes nothing a consumer follows.
      ...(fresh.disconnected ? {} : { announce: disconnectedEvent(fresh, 'by_user', message, deps.clock.now()) }),
    });
    deps.log.info({ social_account_id: socialAccountId, workspace_id: fresh.workspaceId, platform, revoked_at_platform: revoked }, 'social account disconnected');
    return revoked;
  });
  if (result === 'busy') throw new AppError('SERVICE_UNAVAILABLE', 'The account is being refreshed right now; try again in a moment');
  return { revokedAtPlatform: result };
}
