import { publishLag, publishOutcomes } from '@spa/telemetry';
import type { PublishObserver } from '../domain/ports.js';

/** Publish outcomes per platform and error class, and the lag from scheduled_at, as Prometheus metrics. */
export const publishMetrics: PublishObserver = {
  targetFinished: ({ platform, platformStatus, errorClass, lagMs }) => {
    publishOutcomes.inc({ platform, outcome: platformStatus, error_class: errorClass });
    if (lagMs !== undefined && lagMs >= 0) publishLag.observe({ platform }, lagMs / 1000);
  },
};
