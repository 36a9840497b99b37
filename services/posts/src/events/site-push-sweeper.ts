import type { Logger } from '@spa/logger';
import type { SitePushDeps } from '../domain/site-push/ports.js';
import { resumeStalledPushes } from '../domain/site-push/sweeper.js';

/** Periodically finishes site pushes whose drafts a crashed or failed worker left unmade. */
export function startSitePushSweeper(deps: SitePushDeps, logger: Logger, intervalMs: number): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const pass = () => {
    if (running) return;
    running = resumeStalledPushes(deps)
      .catch((err: unknown) => logger.warn({ err }, 'site push sweeper: pass failed; will retry'))
      .finally(() => (running = null));
  };
  const timer = setInterval(pass, intervalMs);
  timer.unref();
  pass();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
