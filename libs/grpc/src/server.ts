import { Server, ServerCredentials, type Metadata, type ServiceDefinition, type ServerUnaryCall, type sendUnaryData } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { toGrpcError, AppError } from '@spa/errors';
import { withRequestId, type Logger } from '@spa/logger';
import { adaptClientStream, type ClientStreamHandler } from './client-stream.js';

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
      handler(call.request, { requestId })
        .then((response) => callback(null, response))
        .catch((err: unknown) => {
          if (!(err instanceof AppError) || err.code === 'INTERNAL_ERROR') logger.error({ err, method }, 'rpc failed');
          callback(toGrpcError(err));
        });
    });
  };
}

export interface RunningGrpcServer {
  port: number;
  health: HealthImplementation;
  shutdown(): Promise<void>;
}

/** Starts a gRPC server with the given services and grpc.health.v1, reporting SERVING once bound. */
export async function startGrpcServer(opts: {
  host: string;
  port: number;
  services: ServiceBinding[];
  logger: Logger;
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
      impl[method] = streaming
        ? (adaptClientStream(opts.logger, `${s.name}/${method}`, handler as never) as never)
        : adapt(opts.logger, `${s.name}/${method}`, handler);
    }
    server.addService(s.definition, impl);
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${opts.host}:${opts.port}`, ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound))),
  );
  health.setStatus('', 'SERVING');
  for (const s of opts.services) health.setStatus(s.name, 'SERVING');
  return {
    port,
    health,
    shutdown: () =>
      new Promise<void>((resolve) => {
        health.setStatus('', 'NOT_SERVING');
        for (const s of opts.services) health.setStatus(s.name, 'NOT_SERVING');
        const force = setTimeout(() => server.forceShutdown(), 10_000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}
