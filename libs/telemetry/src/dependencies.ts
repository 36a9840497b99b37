import type { Logger } from '@spa/logger';
import { dependencyUp } from './business.js';

/** Something a process needs to do its work (its store, NATS, Redis...): a check that throws when it is gone. */
export interface Dependency {
  name: string;
  check(): Promise<void>;
}

/** Runs a check, failing it when it does not settle within `ms` (a hung connection is a lost one). */
export async function withinMs(ms: number, check: () => Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface DependencyWatch {
  /** True when every dependency answered its last check. */
  healthy(): boolean;
  /** What failed at the last check, by dependency name. */
  failures(): Record<string, string>;
  stop(): void;
}

/**
 * Checks every dependency now and then every `intervalMs`, calling `onChange(healthy)` when the
 * overall answer changes (the first result included). Logs each loss and recovery once.
 */
export function watchDependencies(deps: readonly Dependency[], opts: { intervalMs: number; timeoutMs: number; logger: Logger; onChange(healthy: boolean): void }): DependencyWatch {
  const failed = new Map<string, string>();
  let last: boolean | undefined;
  let running = false;
  const round = async () => {
    if (running) return;
    running = true;
    try {
      await Promise.all(
        deps.map(async (dep) => {
          try {
            await withinMs(opts.timeoutMs, () => dep.check());
            if (failed.delete(dep.name)) opts.logger.info({ dependency: dep.name }, 'dependency reachable again');
            dependencyUp.set({ dependency: dep.name }, 1);
          } catch (err) {
            const message = err instanceof Error ? err.message : String(err);
            if (!failed.has(dep.name)) opts.logger.warn({ dependency: dep.name, err: message }, 'dependency unreachable: not serving');
            failed.set(dep.name, message);
            dependencyUp.set({ dependency: dep.name }, 0);
          }
        }),
      );
      const healthy = failed.size === 0;
      if (healthy !== last) {
        last = healthy;
        opts.onChange(healthy);
      }
    } finally {
      running = false;
    }
  };
  void round();
  const timer = setInterval(() => void round(), opts.intervalMs);
  timer.unref();
  return {
    healthy: () => last === true,
    failures: () => Object.fromEntries(failed),
    stop: () => clearInterval(timer),
  };
}
