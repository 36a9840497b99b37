import type { Logger } from '@spa/logger';
import { dispatchDueFetches } from '../domain/dispatch-fetches.js';
import type { AnalyticsDeps } from '../domain/ports.js';

/** Walks the fetch schedule every `intervalMs`, sending the fetches that came due. */
export function startDispatcher(deps: AnalyticsDeps, slotMs: number, intervalMs: number, logger: Logger): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    running = dispatchDueFetches(deps, slotMs)
      .then((sent) => void (sent && logger.debug({ sent }, 'metric fetches sent')))
      .catch((err: unknown) => logger.warn({ err }, 'metric fetch dispatch failed; retried next tick'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  let timer = setTimeout(tick, intervalMs);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
