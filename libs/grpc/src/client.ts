import { Metadata, status, type ChannelCredentials, type CallOptions, type ChannelOptions, type Client, type ServiceError } from '@grpc/grpc-js';
import { fromGrpcError } from '@spa/errors';
import { currentRequestId } from '@spa/logger';
import { currentTraceCarrier, rpcClientDuration } from '@spa/telemetry';
import { grpcSecurity } from './security.js';

type Callback<Res> = (error: ServiceError | null, response: Res) => void;
type UnaryMethod<Req, Res> = (request: Req, metadata: Metadata, options: Partial<CallOptions>, callback: Callback<Res>) => unknown;

/** A ts-proto grpc-js client with its unary methods turned into promises that throw AppError. */
export type PromiseClient<C> = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [K in keyof C as C[K] extends UnaryMethod<any, any> ? K : never]: C[K] extends UnaryMethod<infer Req, infer Res> ? (request: Req, options?: { deadlineMs?: number }) => Promise<Res> : never;
} & { close(): void };

type ClientConstructor<C> = new (address: string, creds: ChannelCredentials, options?: Partial<ChannelOptions>) => C;

/**
 * Creates one long-lived client (one channel, reused for every call) whose calls carry a deadline
 * and the current request id, and whose errors come back as AppError.
 */
export function createClient<C extends Client>(Ctor: ClientConstructor<C>, address: string, defaults: { deadlineMs: number } = { deadlineMs: 5_000 }): PromiseClient<C> {
  const client = new Ctor(address, grpcSecurity().client(), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.keepalive_timeout_ms': 10_000,
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
  });
  return new Proxy({} as PromiseClient<C>, {
    get(_target, prop) {
      if (prop === 'close') return () => client.close();
      const method = (client as unknown as Record<PropertyKey, unknown>)[prop];
      if (typeof method !== 'function') return undefined;
      return (request: unknown, options?: { deadlineMs?: number }) =>
        new Promise((resolve, reject) => {
          const metadata = new Metadata();
          const requestId = currentRequestId();
          if (requestId) metadata.set('x-request-id', requestId);
          for (const [key, value] of Object.entries(currentTraceCarrier())) metadata.set(key, value);
          const deadline = Date.now() + (options?.deadlineMs ?? defaults.deadlineMs);
          const end = rpcClientDuration.startTimer({ method: String(prop) });
          method.call(client, request, metadata, { deadline }, (err: ServiceError | null, response: unknown) => {
            end({ code: status[err?.code ?? status.OK] ?? 'UNKNOWN' });
            if (err) reject(fromGrpcError(err));
            else resolve(response);
          });
        });
    },
  });
}
