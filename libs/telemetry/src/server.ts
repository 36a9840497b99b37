import { createServer, type Server } from 'node:http';
import type { Logger } from '@spa/logger';
import { registry } from './registry.js';

let readiness: () => boolean = () => true;

/** Tells the operations port what "ready" means for this process (its gRPC server's dependency watch). */
export function setReadiness(check: () => boolean): void {
  readiness = check;
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The operations port: GET /metrics (Prometheus text format), GET /healthz (liveness: the process answers)
 * and GET /readyz (503 while a dependency is gone). A port of its own, plain HTTP inside the cluster, so
 * scraping never competes with the public listener and probes work even when gRPC requires mutual TLS
 * (Kubernetes' gRPC probes cannot present a client certificate). Port 0 picks a free one.
 */
export async function startMetricsServer(opts: { host: string; port: number; logger: Logger }): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && (path === '/healthz' || path === '/readyz')) {
      const ok = path === '/healthz' || readiness();
      res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain' }).end(ok ? 'ok\n' : 'not ready\n');
      return;
    }
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => {
        opts.logger.error({ err }, 'metrics collection failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
