import { request } from 'undici';
import { ConnectorError, type ConnectorErrorKind } from './types.js';

/** A response's headers, by name (any case); several values of one header joined with `, `. */
export interface ResponseHeaders {
  get(name: string): string | null;
}

export interface HttpAnswer {
  status: number;
  headers: ResponseHeaders;
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

function retryAfterMs(headers: ResponseHeaders): number | undefined {
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

type RawHeaders = Record<string, string | string[] | undefined>;

const headersOf = (raw: RawHeaders | Headers): ResponseHeaders =>
  raw instanceof Headers
    ? raw
    : {
        get: (name) => {
          const value = raw[name.toLowerCase()];
          return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
        },
      };

/**
 * What to send: the body in the form the HTTP client takes, and the content type it implies (as `fetch` would
 * set it) unless the caller gave one. A multipart form goes through `fetch`, which encodes it.
 */
function encodeBody(raw: unknown): { body?: string | Uint8Array; contentType?: string } | 'multipart' {
  if (raw === undefined) return {};
  if (raw instanceof FormData) return 'multipart';
  if (typeof raw === 'string') return { body: raw, contentType: 'text/plain;charset=UTF-8' };
  if (raw instanceof Uint8Array) return { body: raw };
  if (raw instanceof URLSearchParams) return { body: raw.toString(), contentType: 'application/x-www-form-urlencoded;charset=UTF-8' };
  return { body: JSON.stringify(raw), contentType: 'application/json' };
}

/** Sends the request; answers the status, headers and body text. Throws what the HTTP client throws. */
async function send(
  url: string,
  method: NonNullable<CallOptions['method']>,
  headers: Record<string, string>,
  raw: unknown,
  signal: AbortSignal,
): Promise<{ status: number; headers: ResponseHeaders; text: string }> {
  const encoded = encodeBody(raw);
  if (encoded === 'multipart') {
    const response = await fetch(url, { method, headers, body: raw as FormData, signal, redirect: 'manual' });
    return { status: response.status, headers: headersOf(response.headers), text: await response.text().catch(() => '') };
  }
  // undici's `request` (redirects are not followed): the same client as `fetch`, without the WHATWG streams and
  // objects around it, which were half of the publisher's CPU in the publishing bench.
  const named = new Set(Object.keys(headers).map((h) => h.toLowerCase()));
  const response = await request(url, {
    method,
    headers: encoded.contentType && !named.has('content-type') ? { ...headers, 'content-type': encoded.contentType } : headers,
    body: encoded.body,
    signal,
  });
  return { status: response.statusCode, headers: headersOf(response.headers), text: await response.body.text().catch(() => '') };
}

/**
 * One call to a platform API. Answers 2xx; turns everything else into a ConnectorError of the right
 * kind: 429 → rate_limited (with the platform's retry hint), auth statuses → auth, other 4xx →
 * rejected, 5xx → transient, a connection that never opened → transient, a timeout or a connection
 * lost after the request was sent → unknown_outcome (the post may exist).
 */
export async function callPlatform(url: string, options: CallOptions = {}): Promise<HttpAnswer> {
  const method = options.method ?? 'GET';
  let response: Awaited<ReturnType<typeof send>>;
  try {
    response = await send(url, method, options.headers ?? {}, options.body, AbortSignal.timeout(options.timeoutMs ?? 15_000));
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
    const kind: ConnectorErrorKind = code && CONNECT_FAILURES.has(code) ? 'transient' : method === 'GET' ? 'transient' : 'unknown_outcome';
    throw new ConnectorError(kind, `${method} ${new URL(url).pathname}: ${code ?? (err as Error).name}: ${(err as Error).message}`);
  }
  const { status, headers, text } = response;
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  if (status >= 200 && status < 300) return { status, headers, body };
  const what = `${method} ${new URL(url).pathname} answered ${status}: ${describe(body)}`;
  if (status === 429) throw new ConnectorError('rate_limited', what, retryAfterMs(headers), 429);
  if ((options.authStatuses ?? [401]).includes(status)) throw new ConnectorError('auth', what, undefined, status);
  if (status >= 500) throw new ConnectorError('transient', what, retryAfterMs(headers), status);
  throw new ConnectorError('rejected', what, undefined, status);
}

/** Reads a field path from a JSON body, failing as `rejected` when the platform's answer lacks it. */
export function field<T>(body: unknown, path: string): T {
  let value: unknown = body;
  for (const key of path.split('.')) value = (value as Record<string, unknown> | null | undefined)?.[key];
  if (value === undefined || value === null) throw new ConnectorError('rejected', `the platform's answer has no ${path}: ${describe(body)}`);
  return value as T;
}
