import { inSpan, SpanKind } from '@spa/telemetry';
import type { Platform } from '@spa/vocabulary';
import type { Connector } from './types.js';

const CALLS = ['publish', 'findPublished', 'delete', 'fetchMetrics', 'validateCredentials', 'preflight'] as const;

/**
 * Wraps every connector so that each call to a platform is a client span (`twitter publish`,
 * `mastodon fetchMetrics`, ...) in the trace of the work that made it. Nothing else changes.
 */
export function traced(connectors: Partial<Record<Platform, Connector>>): Partial<Record<Platform, Connector>> {
  const wrap = (connector: Connector): Connector => {
    const wrapped: Record<string, unknown> = { ...connector, platform: connector.platform, canReconcile: connector.canReconcile };
    for (const call of CALLS) {
      const fn = connector[call] as ((...args: unknown[]) => Promise<unknown>) | undefined;
      if (!fn) continue;
      wrapped[call] = (...args: unknown[]) => inSpan(`${connector.platform} ${call}`, { kind: SpanKind.CLIENT, attributes: { 'spa.platform': connector.platform } }, () => fn.apply(connector, args));
    }
    return wrapped as unknown as Connector;
  };
  return Object.fromEntries(Object.entries(connectors).map(([p, c]) => [p, c && wrap(c)]));
}
