import type { Logger } from '@spa/logger';
import type { PlanRun } from './model.js';
import type { PlansDeps } from './ports.js';
import { executeRun, RunOwnershipLost } from './run-plan.js';

/**
 * Executes claimed runs in the background of this process, renewing each run's lease while it works
 * (a third of the lease). A run whose lease cannot be renewed (another attempt took it over) stops at
 * its next step. A run that stops on an error keeps its status `running`: when its lease ends, any
 * replica's scheduler takes it over and resumes it.
 */
export class PlanRunner {
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly deps: PlansDeps,
    private readonly logger: Logger,
  ) {}

  launch(run: PlanRun): void {
    const done = this.execute(run).finally(() => this.inflight.delete(done));
    this.inflight.add(done);
  }

  get busy(): number {
    return this.inflight.size;
  }

  private async execute(run: PlanRun): Promise<void> {
    const abort = new AbortController();
    const renew = setInterval(
      () => {
        const leaseUntil = new Date(this.deps.clock.now().getTime() + this.deps.leaseMs);
        this.deps.store.updateRun(run.id, run.attempt, { leaseUntil }).then(
          (owned) => owned || abort.abort(),
          (err: unknown) => this.logger.warn({ err, runId: run.id }, 'plan run lease renewal failed'),
        );
      },
      Math.max(Math.floor(this.deps.leaseMs / 3), 100),
    );
    try {
      const finished = await executeRun(this.deps, run, abort.signal);
      this.logger.info({ runId: run.id, status: finished.status, posts: finished.postsCreated, ideas: finished.ideasCreated }, 'plan run finished');
    } catch (err) {
      if (err instanceof RunOwnershipLost) this.logger.warn({ runId: run.id }, err.message);
      else this.logger.error({ err, runId: run.id, attempt: run.attempt }, 'plan run stopped; it resumes when its lease ends');
    } finally {
      clearInterval(renew);
    }
  }

  /** Waits for the runs under way (at most `timeoutMs`); an unfinished one is resumed by another replica. */
  async stop(timeoutMs = 10_000): Promise<void> {
    await Promise.race([Promise.allSettled([...this.inflight]), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
  }
}
