import { z } from 'zod';

export { z };

/** Thrown when the environment does not satisfy a process's config schema; names every bad variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses the environment against a zod object whose keys are variable names.
 * Call once per process, at start-up; nothing else reads process.env.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return result.data;
}

/** Reusable variable definitions, so every process spells shared settings alike. */
export const env = {
  /** JOBS_NAMESPACE: names a deployment (its job subjects, and the spa-deployment header of its events). */
  namespace: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only')
    .default('default'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  mongoUrl: z.url({ protocol: /^mongodb(\+srv)?$/ }).default('mongodb://127.0.0.1:27017'),
  natsUrl: z.string().min(1).default('nats://127.0.0.1:4222'),
  redisUrl: z.url({ protocol: /^rediss?$/ }).default('redis://127.0.0.1:6379'),
  host: z.string().min(1).default('127.0.0.1'),
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  address: (fallback: string) =>
    z
      .string()
      .regex(/^[^\s:]+:\d+$/, 'must be host:port')
      .default(fallback),
  millis: (fallback: number) => z.coerce.number().int().positive().default(fallback),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0'])
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1'),
  secret: z.string().min(16, 'must be at least 16 characters'),
};

/**
 * The operational settings every process shares: where it serves metrics, and how its gRPC connections
 * are protected (all three TLS files for mutual TLS, none for plaintext on the local stack).
 */
export function operationsEnv(metricsPort: number) {
  const file = z.string().min(1).optional();
  return {
    METRICS_HOST: env.host,
    METRICS_PORT: env.port(metricsPort),
    GRPC_TLS_CERT: file,
    GRPC_TLS_KEY: file,
    GRPC_TLS_CA: file,
    GRPC_ALLOWED_CALLERS: z.string().optional(),
    /** OTLP/HTTP collector base URL (spans go to <url>/v1/traces); tracing is off without it. */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
    /** How often the event-loop lag is sampled (nodejs_eventloop_lag_*): each sample wakes the process. */
    METRICS_EVENT_LOOP_RESOLUTION_MS: z.coerce.number().int().min(1).max(1000).default(20),
  };
}

/** The settings of a service that writes public events (its outbox and relay, `@spa/events`). */
export function eventsEnv() {
  return {
    /** How often the relay looks for events a crash or a NATS outage left in the outbox (it also runs after each change). */
    EVENTS_RELAY_INTERVAL_MS: env.millis(2_000),
    /**
     * Tests of a crash only: the relay publishes nothing, as if the process died between its changes and their
     * relay; the events wait in the outbox for the next process. Never in production.
     */
    EVENTS_RELAY_HOLD: env.bool(false),
  };
}

/** Runs a process's main, printing config and start-up failures plainly and exiting non-zero. */
export function runMain(main: () => Promise<unknown>): void {
  main().catch((err: unknown) => {
    const message = err instanceof ConfigError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
    process.stderr.write(`${message}\n`);
    process.exit(1);
  });
}
