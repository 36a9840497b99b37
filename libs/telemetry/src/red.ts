import { Counter, Histogram } from 'prom-client';
import { registry } from './registry.js';

/** Request durations in seconds: from 1 ms to 10 s, so both cache hits and deadlines are visible. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** RED for gRPC servers: rate and errors from the count per `code`, duration from the histogram. */
export const rpcServerDuration = new Histogram({
  name: 'rpc_server_duration_seconds',
  help: 'gRPC calls served, by method and status code',
  labelNames: ['method', 'code'] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

/** RED for gRPC clients: what a process waits for from the services it calls. */
export const rpcClientDuration = new Histogram({
  name: 'rpc_client_duration_seconds',
  help: 'gRPC calls made, by method and status code',
  labelNames: ['method', 'code'] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

/** RED for HTTP: the route is the route table's template (/posts/{id}), never the raw path. */
export const httpServerDuration = new Histogram({
  name: 'http_server_duration_seconds',
  help: 'HTTP requests served, by method, route template and status code',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

/** Caches of lists validated by a version in Redis: `cache` names which (closed set), `result` hit | miss | bypass (Redis unreachable). */
export const listCacheResults = new Counter({
  name: 'list_cache_total',
  help: 'Reads of version-validated list caches, by cache and result',
  labelNames: ['cache', 'result'] as const,
  registers: [registry],
});
