import { ConnectorError, type ConnectorErrorKind } from './types.js';

export interface HttpAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  body: unknown;
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  headers?: Record<string, string>;
  /** Sent as JSON unless it is a string, Buffer or FormData/URLSearchParams. */
  body?: unknown;
  timeoutMs?: number;
  /** Statuses this platform uses for invalid credentials (default 401). */
  authStatuses?: readonly number[];
}

const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function retryAfterMs(headers: Headers): number | undefined {
  const retryAfter = headers.get('retry-after');
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - Date.now());
  }
  const reset = headers.get('x-rate-limit-reset') ?? headers.get('x-ratelimit-reset');
  if (reset && Number.isFinite(Number(reset))) {
    const value = Number(reset);
    // Epoch seconds (X) or seconds from now.
    return value > 1e9 ? Math.max(0, value * 1000 - Date.now()) : value * 1000;
  }
  return undefined;
}

function describe(body: unknown): string {
  if (typeof body === 'string') return body.slice(0, 300);
  try {
    return JSON.stringify(body).slice(0, 300);
  } catch {
    return String(body);
  }
}

/**
 * One call to a platform API. Answers 2xx; turns everything else into a ConnectorError of the right
 * kind: 429 → rate_limited (with the platform's retry hint), auth statuses → auth, other 4xx →
 * rejected, 5xx → transient, a connection that never opened → transient, a timeout or a connection
 * lost after the request was sent → unknown_outcome (the post may exist).
 */
export async function callPlatform(url: string, options: CallOptions = {}): Promise<HttpAnswer> {
  const method = options.method ?? 'GET';
  const raw = options.body;
  const isRaw = raw === undefined || typeof raw === 'string' || raw instanceof Uint8Array || raw instanceof FormData || raw instanceof URLSearchParams;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: { ...(isRaw ? {} : { 'content-type': 'application/json' }), ...options.headers },
      body: isRaw ? (raw as RequestInit['body']) : JSON.stringify(raw),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      redirect: 'manual',
    });
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    const kind: ConnectorErrorKind = code && CONNECT_FAILURES.has(code) ? 'transient' : method === 'GET' ? 'transient' : 'unknown_outcome';
    throw new ConnectorError(kind, `${method} ${new URL(url).pathname}: ${code ?? (err as Error).name}: ${(err as Error).message}`);
  }
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  if (response.status >= 200 && response.status < 300) return { status: response.status, headers: response.headers, body };
  const what = `${method} ${new URL(url).pathname} answered ${response.status}: ${describe(body)}`;
  if (response.status === 429) throw new ConnectorError('rate_limited', what, retryAfterMs(response.headers), 429);
  if ((options.authStatuses ?? [401]).includes(response.status)) throw new ConnectorError('auth', what, undefined, response.status);
  if (response.status >= 500) throw new ConnectorError('transient', what, retryAfterMs(response.headers), response.status);
  throw new ConnectorError('rejected', what, undefined, response.status);
}

/** Reads a field path from a JSON body, failing as `rejected` when the platform's answer lacks it. */
export function field<T>(body: unknown, path: string): T {
  let value: unknown = body;
  for (const key of path.split('.')) value = (value as Record<string, unknown> | null | undefined)?.[key];
  if (value === undefined || value === null) throw new ConnectorError('rejected', `the platform's answer has no ${path}: ${describe(body)}`);
  return value as T;
}
