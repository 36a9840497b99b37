import { createHmac, timingSafeEqual } from 'node:crypto';

/** Name of the header that carries the signature. */
export const SIGNATURE_HEADER = 'X-Service-Signature';
/** Default tolerance of a receiver for the signature timestamp. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Lowercase hex HMAC-SHA256 of `<t>.<raw body>` keyed with the secret. */
export function computeSignature(secret: string, timestamp: number, rawBody: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(rawBody).digest('hex');
}

/**
 * The header value `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`: one v1 per secret, in the given order
 * (during a rotation: the new secret first, then the old one).
 */
export function signatureHeader(secrets: readonly string[], timestamp: number, rawBody: string | Uint8Array): string {
  if (!secrets.length) throw new Error('at least one secret is required');
  if (!Number.isInteger(timestamp) || timestamp < 0) throw new Error('timestamp must be whole unix seconds');
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${computeSignature(s, timestamp, rawBody)}`)].join(',');
}

export type VerifyResult = { valid: true; timestamp: number } | { valid: false; reason: string };

export interface VerifyOptions {
  /** Largest accepted age (and clock skew into the future) of `t`, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The receiver's clock, unix seconds (default: now). */
  nowSeconds?: number;
}

/**
 * Verifies a request: recomputes the signature of the raw body (the exact bytes received, before any
 * JSON parsing), compares it in constant time with each `v1` of the header, and rejects a timestamp
 * outside the tolerance.
 */
export function verifySignature(rawBody: string | Uint8Array, header: string | undefined, secret: string, options: VerifyOptions = {}): VerifyResult {
  if (!header) return { valid: false, reason: 'missing signature header' };
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq);
    const value = part.slice(eq + 1);
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) candidates.push(value);
  }
  if (timestamp === undefined) return { valid: false, reason: 'no timestamp in signature header' };
  if (!candidates.length) return { valid: false, reason: 'no v1 signature in signature header' };
  const expected = Buffer.from(computeSignature(secret, timestamp, rawBody), 'hex');
  const matches = candidates.some((c) => timingSafeEqual(expected, Buffer.from(c, 'hex')));
  if (!matches) return { valid: false, reason: 'signature does not match' };
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    return { valid: false, reason: 'timestamp outside the tolerance' };
  }
  return { valid: true, timestamp };
}
