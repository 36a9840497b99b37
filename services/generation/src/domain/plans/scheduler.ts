import type { Logger } from '@spa/logger';
import type { PlansDeps } from './ports.js';
import { claimScheduledRun, takeOverRun } from './run-plan.js';
import type { PlanRunner } from './runner.js';

const BATCH = 20;

/**
 * Runs in every replica: each tick claims the due runs of active plans (plan id + due time, by a unique
 * insert, so each due time runs once however many replicas look) and takes over runs whose owner died.
 */
export class PlanScheduler {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;

  constructor(
    private readonly deps: PlansDeps,
    private readonly runner: PlanRunner,
    private readonly logger: Logger,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      this.ticking ??= this.tick()
        .catch((err: unknown) => this.logger.error({ err }, 'plan scheduler tick failed'))
        .finally(() => (this.ticking = undefined));
    }, intervalMs);
  }

  async tick(): Promise<void> {
    const now = this.deps.clock.now();
    for (const plan of await this.deps.store.duePlans(now, BATCH)) {
      const run = await claimScheduledRun(this.deps, plan);
      if (run) this.runner.launch(run);
    }
    for (const stale of await this.deps.store.staleRuns(now, BATCH)) {
      const run = await takeOverRun(this.deps, stale);
      if (run) {
        this.logger.warn({ runId: run.id, attempt: run.attempt, previousOwner: stale.owner }, 'taking over a plan run whose owner stopped');
        this.runner.launch(run);
      }
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.ticking;
  }
}
