import type { Platform } from '@spa/vocabulary';
import { ConnectorError, type Connector, type PublishRequest, type TargetAccount } from './types.js';

/** Asks the accounts service to refresh an account's token (single-flight there); fresh credentials, or why not. */
export type RefreshCredentials = (socialAccountId: number, refusedAccessToken: string) => Promise<{ credentials?: Record<string, string> | undefined; disconnected: boolean; reason: string }>;

/**
 * Wraps every connector so that a publish, a credentials check or a preflight refused with 401
 * (ConnectorError `auth`) refreshes the account's token once and tries again with the new credentials. A refresh the platform refuses
 * answers `auth` with the reason (the account is disconnected by accounts); a refresh that could not
 * run now is `transient` (the publisher retries later), never a disconnect.
 */
export function withRefreshOn401(connectors: Partial<Record<Platform, Connector>>, refresh: RefreshCredentials): Partial<Record<Platform, Connector>> {
  /** Runs `call` for the target; refused with `auth`, refreshes the token once and runs it again with the new credentials. */
  const refreshing = async <T>(target: TargetAccount, call: (target: TargetAccount) => Promise<T>): Promise<T> => {
    try {
      return await call(target);
    } catch (err) {
      if (!(err instanceof ConnectorError) || err.kind !== 'auth') throw err;
      const answer = await refresh(target.socialAccountId, target.credentials.access_token ?? '').catch((e: unknown) => {
        throw new ConnectorError('transient', `the token was refused and could not be refreshed now: ${(e as Error).message}`);
      });
      if (answer.disconnected) throw new ConnectorError('auth', answer.reason);
      if (!answer.credentials) throw new ConnectorError('transient', `the token was refused; ${answer.reason}`);
      return call({ ...target, credentials: answer.credentials });
    }
  };
  // The checks before a publish (a dry run's, and the recheck when a post's time comes) meet an expired token as the publish does.
  const wrap = (connector: Connector): Connector => ({
    ...connector,
    platform: connector.platform,
    canReconcile: connector.canReconcile,
    publish: (request: PublishRequest) => refreshing(request.target, (target) => connector.publish({ ...request, target })),
    validateCredentials: (target: TargetAccount) => refreshing(target, (t) => connector.validateCredentials(t)),
    ...(connector.preflight ? { preflight: (request: PublishRequest) => refreshing(request.target, (target) => connector.preflight!({ ...request, target })) } : {}),
  });
  return Object.fromEntries(Object.entries(connectors).map(([p, c]) => [p, c && wrap(c)]));
}
