import { classifyGrantError, type InvalidGrantShape } from '@spa/platforms';
import { PlatformAuthError } from '../domain/connect/ports.js';

const TIMEOUT_MS = 15_000;

/**
 * One HTTP call to a platform's auth or identity endpoint. Network errors, timeouts, 429 and 5xx are
 * `transient`; error answers are classified by the platform's invalid-grant shape. Error messages
 * carry the platform's error code and description, never the request (tokens travel in it).
 */
export async function platformCall(
  url: string,
  init: { method?: string; headers?: Record<string, string>; form?: Record<string, string | undefined>; json?: unknown },
  shape: InvalidGrantShape,
): Promise<Record<string, unknown>> {
  const { status, ok, body: parsed } = await fetchJson(url, init);
  const slackRefusal = shape === 'slack' && (parsed as { ok?: unknown }).ok === false;
  if (ok && !slackRefusal) return parsed;
  if (status === 429 || status >= 500) throw new PlatformAuthError('transient', `${new URL(url).host} answered ${status}`);
  const verdict = classifyGrantError(shape, status, parsed);
  throw new PlatformAuthError(verdict.kind, `${new URL(url).host} answered ${status}: ${verdict.detail}`);
}

/**
 * The HTTP exchange under platformCall: the answer's status and parsed JSON body (`{raw}` when it is not
 * JSON). Only a network error or a timeout throws (`transient`); the message never quotes the request.
 */
export async function fetchJson(
  url: string,
  init: { method?: string; headers?: Record<string, string>; form?: Record<string, string | undefined>; json?: unknown },
): Promise<{ status: number; ok: boolean; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(Object.entries(init.form).filter((e): e is [string, string] => e[1] !== undefined)).toString();
  } else if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  let response: Response;
  try {
    response = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    throw new PlatformAuthError('transient', `${new URL(url).host} did not answer: ${(err as Error).name === 'TimeoutError' ? 'timeout' : (err as Error).message}`);
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = { raw: text.slice(0, 200) };
  }
  const record = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : { value: parsed };
  return { status: response.status, ok: response.ok, body: record };
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

export function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}
