import type { Logger } from '@spa/logger';
import { initMetrics, startMetricsServer, type MetricsServer } from '@spa/telemetry';
import { configureGrpcSecurity, type GrpcSecurityConfig } from './security.js';

/**
 * What every process sets up before its own work: gRPC transport security (plaintext or mutual TLS,
 * for every server and client it makes) and its metrics on a port of its own.
 */
export async function startProcessRuntime(
  service: string,
  config: GrpcSecurityConfig & { METRICS_HOST: string; METRICS_PORT: number },
  logger: Logger,
): Promise<MetricsServer> {
  const security = configureGrpcSecurity(config);
  initMetrics(service);
  const metrics = await startMetricsServer({ host: config.METRICS_HOST, port: config.METRICS_PORT, logger });
  logger.info({ metrics_port: metrics.port, grpc_security: security.mode }, 'metrics listening');
  return metrics;
}
