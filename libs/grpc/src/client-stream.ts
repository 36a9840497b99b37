import {
  Metadata,
  type ChannelCredentials,
  type CallOptions,
  type ChannelOptions,
  type Client,
  type ClientWritableStream,
  type ServerReadableStream,
  type sendUnaryData,
  type ServiceError,
} from '@grpc/grpc-js';
import { currentTraceCarrier } from '@spa/telemetry';
import { grpcSecurity } from './security.js';
import { AppError, errorFromMetadata, fromGrpcError, invalidParameters, toGrpcError } from '@spa/errors';
import { currentRequestId, withRequestId, type Logger } from '@spa/logger';
import { createClient, type PromiseClient } from './client.js';
import { controlCharacterProblems, snakeCase } from './request-text.js';

/**
 * Client streaming (many requests, one response) for the unary-only helpers of this library.
 * Server: a handler receives the requests as an async iterable (pulling applies HTTP/2 flow control,
 * so a slow handler slows the sender instead of buffering). Client: `write` waits until the transport
 * took the message, so memory stays bounded by one message plus the channel's window.
 */
export type ClientStreamHandler<Req, Res> = (requests: AsyncIterable<Req>, ctx: { requestId: string | undefined }) => Promise<Res>;

/** The call's messages; a call the client cancelled fails instead of looking complete. */
async function* messagesOf(call: ServerReadableStream<unknown, unknown>): AsyncIterable<unknown> {
  for await (const message of call) {
    const problems = controlCharacterProblems(message, snakeCase);
    if (problems.length) throw invalidParameters(problems);
    yield message;
  }
  if (call.cancelled) throw new AppError('INVALID_PARAMETERS', 'The caller cancelled the call before its end');
}

/** Adapts a client-streaming handler to grpc-js; errors are mapped like unary ones. */
export function adaptClientStream(logger: Logger, method: string, handler: ClientStreamHandler<unknown, unknown>) {
  return (call: ServerReadableStream<unknown, unknown>, callback: sendUnaryData<unknown>): void => {
    const value = call.metadata.get('x-request-id')[0];
    const requestId = typeof value === 'string' ? value : undefined;
    withRequestId(requestId, () => {
      handler(messagesOf(call), { requestId })
        .then((response) => callback(null, response))
        .catch((err: unknown) => {
          if (!(err instanceof AppError) || err.code === 'INTERNAL_ERROR') logger.error({ err, method }, 'rpc failed');
          const status = toGrpcError(err);
          // The error goes out as response headers first, then as the status. A client still writing may
          // see the stream reset before it has read the status (grpc-js then reports "Received RST_STREAM
          // with code 0", an INTERNAL error with no metadata); the headers have reached it by then.
          call.sendMetadata(status.metadata!);
          callback(status);
          // Stop reading what the client still sends: the answer is final.
          call.destroy();
        });
    });
  };
}

type ClientStreamMethod<Req, Res> = (metadata: Metadata, options: Partial<CallOptions>, callback: (error: ServiceError | null, response: Res) => void) => ClientWritableStream<Req>;

type ClientStreamKeys<C> = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [K in keyof C]: C[K] extends ClientStreamMethod<any, any> ? K : never;
}[keyof C];

/** One open client-streaming call. */
export interface ClientStreamCall<Req, Res> {
  /** Sends one message; resolves once the transport accepts more (backpressure). */
  write(message: Req): Promise<void>;
  /** Closes the request side and waits for the answer. */
  end(): Promise<Res>;
  /** Abandons the call (the server sees a cancellation). */
  cancel(): void;
  /** Settles when the server answers, possibly before `end` (an early refusal). */
  readonly response: Promise<Res>;
}

export type StreamingClient<C> = PromiseClient<C> & {
  /** Opens a client-streaming call of `method`; the deadline covers the whole call. */
  clientStream<K extends ClientStreamKeys<C>>(method: K, options?: { deadlineMs?: number }): C[K] extends ClientStreamMethod<infer Req, infer Res> ? ClientStreamCall<Req, Res> : never;
};

type ClientConstructor<C> = new (address: string, creds: ChannelCredentials, options?: Partial<ChannelOptions>) => C;

/** `createClient` plus client-streaming calls (on their own channel, so large uploads do not hold up unary calls). */
export function createStreamingClient<C extends Client>(Ctor: ClientConstructor<C>, address: string, defaults: { deadlineMs: number; streamDeadlineMs: number }): StreamingClient<C> {
  const unary = createClient(Ctor, address, defaults);
  const raw = new Ctor(address, grpcSecurity().client(), { 'grpc.keepalive_time_ms': 30_000, 'grpc.keepalive_timeout_ms': 10_000 });
  /** Wraps one raw client-streaming call (opened by `start` with its metadata, deadline and callback). */
  const open = (
    start: (metadata: Metadata, options: Partial<CallOptions>, callback: (err: ServiceError | null, res: unknown) => void) => ClientWritableStream<unknown>,
    options?: { deadlineMs?: number },
  ) => {
    const metadata = new Metadata();
    const requestId = currentRequestId();
    if (requestId) metadata.set('x-request-id', requestId);
    for (const [key, value] of Object.entries(currentTraceCarrier())) metadata.set(key, value);
    const deadline = Date.now() + (options?.deadlineMs ?? defaults.streamDeadlineMs);
    let call!: ClientWritableStream<unknown>;
    // An error the server sent as response headers (see adaptClientStream): the answer when the status
    // itself was lost to a stream reset.
    let announced: AppError | undefined;
    const response = new Promise<unknown>((resolve, reject) => {
      call = start(metadata, { deadline }, (err, res) => {
        if (!err) return resolve(res);
        const received = fromGrpcError(err);
        reject(received.code === 'INTERNAL_ERROR' && announced ? announced : received);
      });
    });
    call.on('metadata', (headers: Metadata) => {
      announced = errorFromMetadata(headers);
    });
    // A refusal may arrive while nobody awaits `response` yet; it is observed through write/end.
    response.catch(() => undefined);
    let failed: unknown;
    // Writes waiting for the transport; an answer (a refusal) settles them at once. One handler on
    // `response` for the whole call: a handler per write would keep every message written (its
    // closure's scope) alive until the call ends, so memory would grow with the upload.
    const waiting = new Set<() => void>();
    const settleWaiting = () => {
      for (const settle of [...waiting]) settle();
    };
    response.then(settleWaiting, (err: unknown) => {
      failed = err;
      settleWaiting();
    });
    return {
      response,
      // One message in flight at a time: resolves when the transport took it (not merely buffered),
      // so a call holds at most one message beyond the HTTP/2 window.
      write: (message: unknown) =>
        new Promise<void>((resolve, reject) => {
          if (failed) return reject(failed);
          const settle = () => {
            if (!waiting.delete(settle)) return;
            if (failed) reject(failed);
            else resolve();
          };
          waiting.add(settle);
          call.write(message, settle);
        }),
      end: () => {
        call.end();
        return response;
      },
      cancel: () => call.cancel(),
    };
  };
  const clientStream = (method: PropertyKey, options?: { deadlineMs?: number }) => {
    const fn = (raw as unknown as Record<PropertyKey, ClientStreamMethod<unknown, unknown>>)[method]!;
    return open((metadata, callOptions, callback) => fn.call(raw, metadata, callOptions, callback), options);
  };
  return new Proxy(unary, {
    get(target, prop, receiver) {
      if (prop === 'clientStream') return clientStream;
      if (prop === 'close') {
        return () => {
          target.close();
          raw.close();
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  }) as StreamingClient<C>;
}
