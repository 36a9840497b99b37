import type { Logger } from '@spa/logger';
import { initMetrics, initTracing, startMetricsServer } from '@spa/telemetry';
import { configureGrpcSecurity, type GrpcSecurityConfig } from './security.js';

/**
 * What every process sets up before its own work: gRPC transport security (plaintext or mutual TLS,
 * for every server and client it makes), tracing (exported over OTLP when configured) and its
 * operations port (metrics, liveness, readiness). `close()` flushes spans and closes the port.
 */
export async function startProcessRuntime(
  service: string,
  config: GrpcSecurityConfig & { METRICS_HOST: string; METRICS_PORT: number; METRICS_EVENT_LOOP_RESOLUTION_MS?: number; OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined },
  logger: Logger,
): Promise<{ port: number; close(): Promise<void> }> {
  const security = configureGrpcSecurity(config);
  const tracing = await initTracing(service, config.OTEL_EXPORTER_OTLP_ENDPOINT);
  initMetrics(service, config.METRICS_EVENT_LOOP_RESOLUTION_MS);
  const metrics = await startMetricsServer({ host: config.METRICS_HOST, port: config.METRICS_PORT, logger });
  logger.info({ metrics_port: metrics.port, grpc_security: security.mode, tracing: Boolean(config.OTEL_EXPORTER_OTLP_ENDPOINT) }, 'metrics listening');
  return {
    port: metrics.port,
    close: async () => {
      await tracing.shutdown();
      await metrics.close();
    },
  };
}
