import type { Logger } from '@spa/logger';
import { dispatchDuePosts, DueScan } from '../domain/publishing.js';
import type { PostsDeps } from '../domain/ports.js';

/**
 * Runs the scheduler's pass every `intervalMs`, one pass at a time, each reading the posts due since the
 * last and every `fullScanMs` all due posts (DueScan). Any number of replicas may run it.
 */
export function startScheduler(deps: PostsDeps, logger: Logger, intervalMs: number, fullScanMs: number): { stop(): Promise<void> } {
  const scan = new DueScan(fullScanMs);
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = dispatchDuePosts(deps, undefined, scan)
      .catch((err: unknown) => logger.warn({ err }, 'scheduler: pass failed; will retry'))
      .finally(() => (running = null));
  }, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
