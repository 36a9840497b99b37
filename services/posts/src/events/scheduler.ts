import type { Logger } from '@spa/logger';
import { dispatchDuePosts } from '../domain/publishing.js';
import type { PostsDeps } from '../domain/ports.js';

/** Runs the scheduler's pass every `intervalMs`, one pass at a time. Any number of replicas may run it. */
export function startScheduler(deps: PostsDeps, logger: Logger, intervalMs: number): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = dispatchDuePosts(deps)
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
