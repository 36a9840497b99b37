import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AttemptOutcome } from '../domain/model.js';
import type { HttpSender, OutboundRequest, ResolvedAddress } from '../domain/ports.js';

/**
 * Idle kept-alive connections close after this long: under the 5 s keep-alive timeout of Node's own
 * servers, so a connection is rarely reused just as its receiver closes it (a server's `Keep-Alive:
 * timeout=` hint shortens it further).
 */
const IDLE_CONNECTION_MS = 4_000;
/** Receivers whose connections are kept, least recently used dropped first. */
const MAX_AGENTS = 1_000;

/** A lookup that answers every name with the address already resolved and checked: no second DNS query, no rebinding. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as LookupFunction;
}

/**
 * Connections kept alive per receiver and checked address: one is only ever reused for a request pinned
 * to the address it is connected to (and, over TLS, for the same name), so reuse never skips the address
 * check. A burst to one receiver costs one connection per attempt in flight, not one per attempt.
 */
const agents = new Map<string, http.Agent>();

function agentFor(req: OutboundRequest): http.Agent {
  const key = `${req.url.protocol}//${req.url.host} ${req.address.address}`;
  let agent = agents.get(key);
  if (agent) agents.delete(key);
  else agent = new (req.url.protocol === 'https:' ? https.Agent : http.Agent)({ keepAlive: true, timeout: IDLE_CONNECTION_MS });
  agents.set(key, agent); // most recently used last
  if (agents.size > MAX_AGENTS) {
    const [oldestKey, oldest] = agents.entries().next().value!;
    agents.delete(oldestKey);
    oldest.destroy();
  }
  return agent;
}

/** One POST on a kept-alive connection (`agent`) or a new one (`false`); `reusedReset` when a reused connection was found closed before any answer. */
function postOnce(req: OutboundRequest, agent: http.Agent | false, timeoutMs: number): Promise<Omit<AttemptOutcome, 'durationMs'> & { reusedReset?: boolean }> {
  const client = req.url.protocol === 'https:' ? https : http;
  const body = Buffer.from(req.body, 'utf8');
  return new Promise((resolve) => {
    let settled = false;
    let answered = false;
    const settle = (outcome: Omit<AttemptOutcome, 'durationMs'> & { reusedReset?: boolean }) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const request = client.request(req.url, {
      method: 'POST',
      headers: { ...req.headers, 'content-length': String(body.length) },
      lookup: pinnedLookup(req.address),
      agent,
    });
    // Bounds the whole exchange; a body still arriving then is cut off with its connection.
    const timer = setTimeout(() => {
      settle({ ok: false, error: `no answer within ${timeoutMs} ms` });
      request.destroy();
    }, timeoutMs);
    request.on('response', (res) => {
      answered = true;
      const status = res.statusCode ?? 0;
      // Read to the end, so the connection can serve the next attempt.
      res.resume();
      res.on('end', () => clearTimeout(timer));
      res.on('error', () => undefined);
      if (status >= 200 && status < 300) settle({ ok: true, statusCode: status });
      else if (status >= 300 && status < 400) settle({ ok: false, statusCode: status, error: `HTTP ${status} (redirects are not followed)` });
      else settle({ ok: false, statusCode: status, error: `HTTP ${status}` });
    });
    request.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const reusedReset = request.reusedSocket && !answered && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
      settle({ ok: false, error: err.code ? `${err.code}: ${err.message}` : err.message, ...(reusedReset ? { reusedReset } : {}) });
    });
    request.end(body);
  });
}

/**
 * POSTs with node:http/https to the pinned address, on a kept-alive connection to it when there is one.
 * Success is a 2xx status line within the timeout (which bounds the whole exchange); a 3xx is a failure
 * and is never followed. A kept-alive connection the receiver had closed just before it was reused is
 * retried once on a new connection, within the same timeout. Never throws.
 */
export const httpSender: HttpSender = {
  async post(req: OutboundRequest): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let outcome = await postOnce(req, agentFor(req), req.timeoutMs);
    if (outcome.reusedReset && elapsed() < req.timeoutMs) outcome = await postOnce(req, false, req.timeoutMs - elapsed());
    const { reusedReset: _, ...result } = outcome;
    return { ...result, durationMs: elapsed() };
  },
};
