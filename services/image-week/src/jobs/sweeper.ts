import type { Logger } from '@spa/logger';
import type { ImageWeekDeps } from '../domain/ports.js';
import { itemJob, planJob } from '../domain/runs.js';

/**
 * Sends again the jobs of work nobody advanced for `staleMs`: a run whose planning job was never sent (NATS down at
 * create) or items whose job was lost. Leases keep a job sent twice from being worked twice.
 */
export function startSweeper(deps: Pick<ImageWeekDeps, 'store' | 'jobs' | 'clock'>, logger: Logger, { intervalMs, staleMs }: { intervalMs: number; staleMs: number }): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const sweep = async () => {
    const now = deps.clock.now();
    const bucket = `sweep-${Math.floor(now.getTime() / staleMs)}`;
    const { runs, items } = await deps.store.stale(new Date(now.getTime() - staleMs));
    await Promise.all([...runs.map((r) => deps.jobs.dispatch(planJob(r, bucket))), ...items.map((i) => deps.jobs.dispatch(itemJob(i, bucket)))]);
  };
  const timer = setInterval(() => {
    running ??= sweep()
      .catch((err: unknown) => logger.warn({ err }, 'image-week sweep failed'))
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
