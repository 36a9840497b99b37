import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The process's one metrics registry. Every metric of the project registers here, labelled with the
 * process's service name; labels are bounded sets (method, route template, platform, outcome), never ids.
 */
export const registry = new Registry();

let initialised = false;

/** Labels every metric with the service and starts the runtime metrics (event-loop lag, GC, heap, CPU). */
export function initMetrics(service: string): void {
  if (initialised) return;
  initialised = true;
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
}
