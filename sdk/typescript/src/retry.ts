/** When to retry: 429 (rate limits) and 503 (a backend briefly unavailable), honouring Retry-After. */
export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 disables retrying). */
  maxRetries?: number;
  /** Wait when the answer has no Retry-After, doubled on each retry (default 500 ms). */
  baseDelayMs?: number;
  /** Longest single wait; a longer Retry-After is not waited for and the answer is returned (default 60 s). */
  maxDelayMs?: number;
  /** Waits; replaceable in tests. */
  sleep?: (ms: number) => Promise<void>;
}

const RETRIED = new Set([429, 503]);

/** Milliseconds a Retry-After header asks for (delta seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * A fetch that retries 429 and 503 answers. Every attempt sends the same request, headers included, so a
 * POST keeps its Idempotency-Key and the server runs it at most once.
 */
export function retryingFetch(inner: typeof fetch, options: RetryOptions = {}): (input: Request) => Promise<Response> {
  const maxRetries = options.maxRetries ?? 3;
  const base = options.baseDelayMs ?? 500;
  const cap = options.maxDelayMs ?? 60_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (request: Request) => {
    for (let attempt = 0; ; attempt++) {
      const response = await inner(request.clone());
      if (!RETRIED.has(response.status) || attempt >= maxRetries) return response;
      const wait = retryAfterMs(response.headers.get('retry-after')) ?? base * 2 ** attempt;
      if (wait > cap) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}
