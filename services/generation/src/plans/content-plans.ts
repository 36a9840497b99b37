import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import type { PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import type { PromiseClient, ServiceBinding } from '@spa/grpc';
import type { Logger } from '@spa/logger';
import type { Connection } from '@spa/mongo';
import { contentPlansService } from '../grpc/plans-handlers.js';
import { MongoIdeasStore } from '../ideas/data/mongo-store.js';
import { MongoPlansStore } from './data/mongo-store.js';
import type { PlansDeps, PostWriter } from './domain/ports.js';
import { PlanRunner } from './runner.js';
import { PlanScheduler } from './scheduler.js';
import { accountsPort, postsPort } from './service-ports.js';

export interface ContentPlans {
  service: ServiceBinding;
  /** Starts this replica's scheduler (due plans, takeovers of dead owners' runs). */
  start(): void;
  /** Stops the scheduler and waits for the runs under way (an unfinished one is resumed elsewhere). */
  stop(): Promise<void>;
}

/** Content plans and ideas of the generation service: stores, run executor, scheduler and gRPC service. */
export function createContentPlans(opts: {
  connection: Connection;
  accounts: PromiseClient<AccountsServiceClient>;
  posts: PromiseClient<PostsServiceClient>;
  writer: PostWriter;
  config: { PLANS_POLL_INTERVAL_MS: number; PLANS_RUN_LEASE_MS: number };
  logger: Logger;
}): ContentPlans {
  const deps: PlansDeps = {
    store: new MongoPlansStore(opts.connection),
    ideas: new MongoIdeasStore(opts.connection),
    accounts: accountsPort(opts.accounts),
    posts: postsPort(opts.posts),
    writer: opts.writer,
    clock: { now: () => new Date() },
    newId: randomUUID,
    instanceId: `${hostname()}:${process.pid}`,
    leaseMs: opts.config.PLANS_RUN_LEASE_MS,
  };
  const runner = new PlanRunner(deps, opts.logger);
  const scheduler = new PlanScheduler(deps, runner, opts.logger);
  return {
    service: contentPlansService(deps, (run) => runner.launch(run)),
    start: () => scheduler.start(opts.config.PLANS_POLL_INTERVAL_MS),
    stop: async () => {
      await scheduler.stop();
      await runner.stop();
    },
  };
}
