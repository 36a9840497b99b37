import autocannon from 'autocannon';
import type { IncomingHttpHeaders } from 'node:http';
import { LatencyRecorder, tally, type LoadResult } from './stats.js';

export interface HttpLoad {
  url: string;
  /** GET unless given; a body is sent as is (set its content-type in `headers`). */
  method?: 'GET' | 'POST';
  body?: string;
  connections: number;
  durationS: number;
  headers?: IncomingHttpHeaders;
  /** Called before every request: returns headers to add to that one request. */
  perRequestHeaders?: () => IncomingHttpHeaders;
}

/**
 * Runs autocannon against one URL. Latencies come from autocannon's per-response timings
 * (fractional milliseconds) rather than its histogram, which only keeps whole milliseconds.
 */
export async function runHttpLoad(load: HttpLoad): Promise<LoadResult> {
  const latencies = new LatencyRecorder();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(toOptions(load), (err: unknown, res: autocannon.Result) => (err ? reject(toError(err)) : resolve(res)));
    instance.on('response', (_client, _status, _bytes, responseTimeMs) => latencies.record(responseTimeMs));
  });
  return {
    requestsPerSec: result.requests.average,
    ...latencies.percentiles(),
    completed: latencies.count,
    errors: result.errors,
    non2xx: result.non2xx,
    failures: failuresOf(result),
  };
}

/** Non-2xx responses by status code, plus client-side timeouts and other connection errors. */
function failuresOf(result: autocannon.Result): Record<string, number> {
  const failures: Record<string, number> = {};
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
    if (!status.startsWith('2') && stats.count) tally(failures, `HTTP ${status}`, stats.count);
  }
  if (result.timeouts > 0) tally(failures, 'client timeout', result.timeouts);
  if (result.errors > result.timeouts) tally(failures, 'connection error', result.errors - result.timeouts);
  return failures;
}

function toOptions(load: HttpLoad): autocannon.Options {
  const { perRequestHeaders } = load;
  return {
    url: load.url,
    ...(load.method ? { method: load.method } : {}),
    ...(load.body !== undefined ? { body: load.body } : {}),
    connections: load.connections,
    duration: load.durationS,
    headers: load.headers ?? {},
    requests: perRequestHeaders ? [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, ...perRequestHeaders() } }) }] : undefined,
  };
}

function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
