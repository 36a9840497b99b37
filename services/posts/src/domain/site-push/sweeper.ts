import { makeDrafts } from './make-drafts.js';
import type { SitePushDeps } from './ports.js';

/**
 * One pass over pushes whose drafts are still to make and whose worker's lease ran out (it crashed,
 * or the push came in while generation was down): takes each over with a new lease and finishes it.
 */
export async function resumeStalledPushes(deps: SitePushDeps, limit = 20): Promise<number> {
  const now = deps.clock.now();
  const stalled = await deps.sitePushes.stalled(now, limit);
  for (const push of stalled) {
    await deps.sitePushes.extendLease(push.workspaceId, push.key, new Date(now.getTime() + deps.leaseMs));
    await makeDrafts(deps, push).catch((err: unknown) => deps.onBackgroundError(err, push.key));
  }
  return stalled.length;
}
