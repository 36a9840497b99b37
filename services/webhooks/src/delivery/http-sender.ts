import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AttemptOutcome } from '../domain/model.js';
import type { HttpSender, OutboundRequest, ResolvedAddress } from '../domain/ports.js';

/** A lookup that answers every name with the address already resolved and checked: no second DNS query, no rebinding. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as LookupFunction;
}

/**
 * POSTs with node:http/https to the pinned address. Success is a 2xx status line within the timeout
 * (which bounds the whole exchange); a 3xx is a failure and is never followed. Never throws.
 */
export const httpSender: HttpSender = {
  post(req: OutboundRequest): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const client = req.url.protocol === 'https:' ? https : http;
    const body = Buffer.from(req.body, 'utf8');
    return new Promise<AttemptOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...outcome, durationMs: elapsed() });
      };
      const request = client.request(req.url, {
        method: 'POST',
        headers: { ...req.headers, 'content-length': String(body.length) },
        lookup: pinnedLookup(req.address),
        agent: false,
      });
      const timer = setTimeout(() => {
        settle({ ok: false, error: `no answer within ${req.timeoutMs} ms` });
        request.destroy();
      }, req.timeoutMs);
      request.on('response', (res) => {
        const status = res.statusCode ?? 0;
        res.resume();
        res.on('error', () => undefined);
        if (status >= 200 && status < 300) settle({ ok: true, statusCode: status });
        else if (status >= 300 && status < 400) settle({ ok: false, statusCode: status, error: `HTTP ${status} (redirects are not followed)` });
        else settle({ ok: false, statusCode: status, error: `HTTP ${status}` });
        request.destroy();
      });
      request.on('error', (err: NodeJS.ErrnoException) => settle({ ok: false, error: err.code ? `${err.code}: ${err.message}` : err.message }));
      request.end(body);
    });
  },
};
