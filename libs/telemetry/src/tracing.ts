import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { TracerProvider } from '@opentelemetry/sdk-trace';

export { SpanKind };

/** A carrier of W3C trace context (`traceparent`, `tracestate`): HTTP headers, gRPC metadata, NATS headers. */
export type TraceCarrier = Record<string, string>;

let provider: TracerProvider | undefined;

/**
 * Turns tracing on when an OTLP endpoint is configured (spans batched and exported over OTLP/HTTP),
 * and leaves it off otherwise: then every helper below costs next to nothing and exports nothing.
 * W3C trace context is propagated in both cases, so a traced caller's trace passes through.
 * The SDK and the exporter are loaded only when tracing is on (about 0.2 s of CPU at every start otherwise).
 */
export async function initTracing(service: string, otlpEndpoint: string | undefined): Promise<{ shutdown(): Promise<void> }> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  if (!otlpEndpoint) return { shutdown: async () => undefined };
  const [{ OTLPTraceExporter }, { resourceFromAttributes }, { BatchSpanProcessor, TracerProvider }] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace'),
  ]);
  const url = `${otlpEndpoint.replace(/\/$/, '')}/v1/traces`;
  provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }), scheduledDelayMillis: 500 })],
  });
  trace.setGlobalTracerProvider(provider);
  return { shutdown: async () => provider?.shutdown() };
}

const tracer = () => trace.getTracer('spa');

/** The current trace context, to carry across a process boundary (or to store with work done later). */
export function currentTraceCarrier(): TraceCarrier {
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/**
 * Runs `fn` inside a span named `name`, child of the trace in `parent` (a carrier received from another
 * process or stored with the work) or of the current span. Errors mark the span and are rethrown.
 */
export async function inSpan<T>(name: string, opts: { kind?: SpanKind; parent?: TraceCarrier | undefined; attributes?: Attributes }, fn: () => Promise<T>): Promise<T> {
  const parentContext = opts.parent ? propagation.extract(context.active(), opts.parent) : context.active();
  const span = tracer().startSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL, ...(opts.attributes ? { attributes: opts.attributes } : {}) }, parentContext);
  try {
    return await context.with(trace.setSpan(parentContext, span), fn);
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
    throw err;
  } finally {
    span.end();
  }
}

/**
 * Starts a span whose end is not a promise's (an HTTP response's `finish`): returns a function that
 * runs code inside it and `end(statusCode?)`.
 */
export function startSpan(name: string, opts: { kind?: SpanKind; parent?: TraceCarrier | undefined }) {
  const parentContext = opts.parent ? propagation.extract(context.active(), opts.parent) : context.active();
  const span = tracer().startSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL }, parentContext);
  const ctx = trace.setSpan(parentContext, span);
  return {
    run: <T>(fn: () => T): T => context.with(ctx, fn),
    rename: (n: string) => span.updateName(n),
    end: (failed = false, attributes?: Attributes) => {
      if (attributes) span.setAttributes(attributes);
      if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}
