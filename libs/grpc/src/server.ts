import { Server, status, type Metadata, type ServiceDefinition, type ServerUnaryCall, type ServiceError, type sendUnaryData } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { toGrpcError, AppError, invalidParameters } from '@spa/errors';
import { withRequestId, type Logger } from '@spa/logger';
import { rpcServerDuration, setReadiness, SpanKind, startSpan, watchDependencies, type Dependency, type TraceCarrier } from '@spa/telemetry';
import { adaptClientStream, type ClientStreamHandler } from './client-stream.js';
import { addReflection } from './reflection.js';
import { controlCharacterProblems, snakeCase } from './request-text.js';
import { callerRefusal, grpcSecurity } from './security.js';

/** What a handler sees of its call besides the request: caller metadata, nothing transport-specific. */
export interface CallContext {
  requestId: string | undefined;
}

export type UnaryHandler<Req, Res> = (request: Req, ctx: CallContext) => Promise<Res>;

type HandlersOf<D> = {
  [K in keyof D]: D[K] extends { requestDeserialize: (b: Buffer) => infer Req; responseSerialize: (r: infer Res) => Buffer }
    ? D[K] extends { requestStream: true }
      ? ClientStreamHandler<Req, Res>
      : UnaryHandler<Req, Res>
    : never;
};

export interface ServiceBinding {
  name: string;
  definition: ServiceDefinition;
  handlers: Record<string, UnaryHandler<unknown, unknown>>;
}

/** Pairs a ts-proto service definition with async handlers, keeping the types tied. */
export function bindService<D extends ServiceDefinition>(name: string, definition: D, handlers: HandlersOf<D>): ServiceBinding {
  return { name, definition, handlers: handlers as Record<string, UnaryHandler<unknown, unknown>> };
}

function requestIdOf(metadata: Metadata): string | undefined {
  const value = metadata.get('x-request-id')[0];
  return typeof value === 'string' ? value : undefined;
}

function adapt(logger: Logger, method: string, handler: UnaryHandler<unknown, unknown>) {
  return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>): void => {
    const requestId = requestIdOf(call.metadata);
    withRequestId(requestId, () => {
      // Text with control characters is refused before any handler sees it, naming the field as the contract does.
      const problems = controlCharacterProblems(call.request, snakeCase);
      if (problems.length) return callback(toGrpcError(invalidParameters(problems)));
      handler(call.request, { requestId })
        .then((response) => callback(null, response))
        .catch((err: unknown) => {
          if (!(err instanceof AppError) || err.code === 'INTERNAL_ERROR') logger.error({ err, method }, 'rpc failed');
          callback(toGrpcError(err));
        });
    });
  };
}

type Impl = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => void;

/**
 * Around every method: the caller check (mutual TLS allow-list) before anything runs, and the RED
 * metric (duration by method and status code) when the answer leaves.
 */
function guarded(method: string, impl: Impl): Impl {
  return (call, callback) => {
    const end = rpcServerDuration.startTimer({ method });
    const span = startSpan(method, { kind: SpanKind.SERVER, parent: traceCarrierOf(call.metadata) });
    const answer: sendUnaryData<unknown> = (err, value) => {
      const code = status[(err as ServiceError | null)?.code ?? status.OK] ?? 'UNKNOWN';
      end({ code });
      span.end(err !== null && err !== undefined, { 'rpc.grpc.status_code': code });
      callback(err, value);
    };
    const refusal = callerRefusal(call as never);
    if (refusal) answer(refusal as ServiceError);
    else span.run(() => impl(call, answer));
  };
}

/** The W3C trace context a caller sent in its metadata (traceparent, tracestate). */
function traceCarrierOf(metadata: Metadata): TraceCarrier | undefined {
  const traceparent = metadata.get('traceparent')[0];
  if (typeof traceparent !== 'string') return undefined;
  const tracestate = metadata.get('tracestate')[0];
  return typeof tracestate === 'string' ? { traceparent, tracestate } : { traceparent };
}

export interface RunningGrpcServer {
  port: number;
  health: HealthImplementation;
  /** True while every dependency answers (and the server is not shutting down). */
  ready(): boolean;
  shutdown(): Promise<void>;
}

/** Starts a gRPC server with the given services and grpc.health.v1, reporting SERVING once bound. */
export async function startGrpcServer(opts: {
  host: string;
  port: number;
  services: ServiceBinding[];
  logger: Logger;
  /** What the process needs to work (store, NATS, Redis...): health says NOT_SERVING while one is gone. */
  dependencies?: readonly Dependency[];
  dependencyCheckMs?: number;
}): Promise<RunningGrpcServer> {
  const server = new Server({ 'grpc.max_receive_message_length': 64 * 1024 * 1024 });
  const statusMap: Record<string, 'SERVING' | 'NOT_SERVING'> = { '': 'NOT_SERVING' };
  for (const s of opts.services) statusMap[s.name] = 'NOT_SERVING';
  const health = new HealthImplementation(statusMap);
  health.addToServer(server);
  for (const s of opts.services) {
    const impl: Record<string, ReturnType<typeof adapt>> = {};
    for (const [method, handler] of Object.entries(s.handlers)) {
      const streaming = (s.definition[method] as { requestStream?: boolean } | undefined)?.requestStream;
      // The proto's own name (accounts.v1.AccountsService/CreateWorkspace), as grpcurl and traces show it.
      const name = (s.definition[method] as { path?: string } | undefined)?.path?.slice(1) ?? `${s.name}/${method}`;
      impl[method] = guarded(name, streaming ? (adaptClientStream(opts.logger, name, handler as never) as never) : adapt(opts.logger, name, handler));
    }
    server.addService(s.definition, impl);
  }
  if (
    !addReflection(
      server,
      opts.services.map((s) => s.name),
    )
  )
    opts.logger.warn('proto files not found: gRPC reflection off');
  const port = await new Promise<number>((resolve, reject) => server.bindAsync(`${opts.host}:${opts.port}`, grpcSecurity().server(), (err, bound) => (err ? reject(err) : resolve(bound))));
  let stopping = false;
  const setAll = (serving: boolean) => {
    const value = serving && !stopping ? 'SERVING' : 'NOT_SERVING';
    health.setStatus('', value);
    for (const s of opts.services) health.setStatus(s.name, value);
  };
  const deps = opts.dependencies ?? [];
  // Without dependencies the server serves once bound; with them, from their first successful check on.
  const watch = watchDependencies(deps, { intervalMs: opts.dependencyCheckMs ?? 2_000, timeoutMs: 1_500, logger: opts.logger, onChange: setAll });
  if (deps.length === 0) setAll(true);
  else await waitUntil(() => watch.healthy(), 5_000);
  const ready = () => !stopping && (deps.length === 0 || watch.healthy());
  setReadiness(ready);
  return {
    port,
    health,
    ready,
    shutdown: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        watch.stop();
        setAll(false);
        const force = setTimeout(() => server.forceShutdown(), 10_000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}

/** Waits (bounded) for a condition that a background check will make true; never throws. */
async function waitUntil(condition: () => boolean, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
}
