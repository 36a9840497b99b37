import type { Logger } from '@spa/logger';

/**
 * Runs the given steps in order on SIGTERM or SIGINT (each bounded in time), then exits.
 * Typical order: health NOT_SERVING and server drain, NATS drain, database disconnect.
 */
export function onShutdown(logger: Logger, steps: Array<[name: string, step: () => Promise<unknown>]>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    for (const [name, step] of steps) {
      try {
        await Promise.race([step(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 10_000))]);
      } catch (err) {
        logger.warn({ err, step: name }, 'shutdown step failed');
      }
    }
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
