import { context, propagation } from '@opentelemetry/api';
import { currentRequestId, withRequestId } from '@spa/logger';
import { currentTraceCarrier } from './tracing.js';

/**
 * Where a piece of deferred work came from: the request id and W3C trace context of the request that
 * asked for it. Stored with the work (a scheduled post, an outbox event, a webhook delivery), so that
 * when a background loop does it later, its logs carry the same request id and its spans join the same
 * trace. Plain data: it travels through domain code without knowing what it is.
 */
export interface WorkOrigin {
  requestId?: string | undefined;
  traceparent?: string | undefined;
  tracestate?: string | undefined;
}

/** The origin of work asked for now (empty outside a request). */
export function captureOrigin(): WorkOrigin {
  const carrier = currentTraceCarrier();
  return {
    ...(currentRequestId() ? { requestId: currentRequestId() } : {}),
    ...(carrier.traceparent ? { traceparent: carrier.traceparent } : {}),
    ...(carrier.tracestate ? { tracestate: carrier.tracestate } : {}),
  };
}

/** Runs `fn` as a continuation of the request the work came from (its request id and trace). */
export function resumeOrigin<T>(origin: WorkOrigin | undefined, fn: () => T): T {
  if (!origin?.requestId && !origin?.traceparent) return fn();
  const carrier: Record<string, string> = {};
  if (origin.traceparent) carrier.traceparent = origin.traceparent;
  if (origin.tracestate) carrier.tracestate = origin.tracestate;
  const ctx = propagation.extract(context.active(), carrier);
  return context.with(ctx, () => (origin.requestId ? withRequestId(origin.requestId, fn) : fn()));
}
