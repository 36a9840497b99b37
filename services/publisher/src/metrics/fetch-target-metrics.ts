import type { Platform } from '@spa/vocabulary';
import { ConnectorError, isPostGone, type PostMetrics } from '../connectors/types.js';
import type { PublisherDeps } from '../domain/ports.js';

export interface MetricFetch {
  workspaceId: number;
  socialAccountId: number;
  platform: Platform;
  platformPostId: string;
}

export type FetchOutcome =
  | { kind: 'ok'; metrics: PostMetrics; fetchedAt: Date }
  /** The credentials were refused: the account is marked disconnected and no more fetches are made. */
  | { kind: 'disconnected'; error: string }
  /** The platform no longer has the post, or the account is gone: no more fetches. */
  | { kind: 'gone'; error: string }
  /** The platform refused this read (a permission, a malformed id): trying again would be refused alike; the next scheduled fetch still runs. */
  | { kind: 'failed'; error: string }
  /** Try later: `afterMs` is the platform's rate-limit hint when it gave one. */
  | { kind: 'retry'; error: string; afterMs?: number | undefined };

/**
 * One metric fetch of one posted target through its platform's connector. A read: repeating it is
 * harmless, so the caller may retry after a crash; the snapshot it yields is stored once by its id.
 */
export async function fetchTargetMetrics(deps: Pick<PublisherDeps, 'accounts' | 'connectors' | 'clock'>, f: MetricFetch): Promise<FetchOutcome> {
  const connector = deps.connectors[f.platform];
  if (!connector) return { kind: 'gone', error: `metrics of ${f.platform} are not supported` };
  const [target] = await deps.accounts.targets(f.workspaceId, [f.socialAccountId]);
  if (!target) return { kind: 'gone', error: 'the social account is no longer connected to the workspace' };
  try {
    const metrics = await connector.fetchMetrics(target, f.platformPostId);
    return { kind: 'ok', metrics, fetchedAt: deps.clock.now() };
  } catch (err) {
    if (!(err instanceof ConnectorError)) return { kind: 'retry', error: err instanceof Error ? err.message : String(err) };
    switch (err.kind) {
      case 'auth':
        await deps.accounts.markDisconnected(f.workspaceId, f.socialAccountId);
        return { kind: 'disconnected', error: `credentials no longer valid: ${err.message}` };
      case 'rejected':
        return isPostGone(err) ? { kind: 'gone', error: err.message } : { kind: 'failed', error: err.message };
      case 'rate_limited':
        return { kind: 'retry', error: err.message, afterMs: err.retryAfterMs };
      default:
        return { kind: 'retry', error: err.message };
    }
  }
}
