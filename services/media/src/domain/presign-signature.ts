import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a local-disk presigned PUT URL binds: key, size, type and expiry, signed with HMAC-SHA256. */
export interface PutBinding {
  key: string;
  sizeBytes: number;
  contentType: string;
  expiresAt: Date;
}

const canonical = (b: PutBinding): string => ['PUT', b.key, String(b.sizeBytes), b.contentType, String(Math.floor(b.expiresAt.getTime() / 1000))].join('\n');

const digest = (key: string, b: PutBinding): string => createHmac('sha256', key).update(canonical(b)).digest('hex');

/** The query parameters of a presigned PUT URL. */
export function signPresignedPut(signingKey: string, b: PutBinding): Record<string, string> {
  return {
    'X-Spa-Expires': String(Math.floor(b.expiresAt.getTime() / 1000)),
    'X-Spa-Size': String(b.sizeBytes),
    'X-Spa-Content-Type': b.contentType,
    'X-Spa-Signature': digest(signingKey, b),
  };
}

export type PutCheck = { ok: true; binding: PutBinding } | { ok: false; status: 400 | 403; reason: string };

/**
 * Checks a presigned PUT against its URL: the signature over key, size, type and expiry, the expiry,
 * and that the request's Content-Type and Content-Length are the bound ones.
 */
export function verifyPresignedPut(
  signingKey: string,
  key: string,
  query: Record<string, string | undefined>,
  request: { contentType: string | undefined; contentLength: string | undefined },
  now: Date,
): PutCheck {
  const expires = Number(query['X-Spa-Expires']);
  const size = Number(query['X-Spa-Size']);
  const contentType = query['X-Spa-Content-Type'];
  const signature = query['X-Spa-Signature'];
  if (!Number.isSafeInteger(expires) || !Number.isSafeInteger(size) || !contentType || !signature) {
    return { ok: false, status: 403, reason: 'the upload URL is not signed (X-Spa-Expires, X-Spa-Size, X-Spa-Content-Type, X-Spa-Signature)' };
  }
  const binding: PutBinding = { key, sizeBytes: size, contentType, expiresAt: new Date(expires * 1000) };
  const expected = Buffer.from(digest(signingKey, binding), 'hex');
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, status: 403, reason: 'the upload URL signature does not match' };
  if (now.getTime() > binding.expiresAt.getTime()) return { ok: false, status: 403, reason: 'the upload URL has expired' };
  if ((request.contentType ?? '').split(';')[0]!.trim().toLowerCase() !== contentType) {
    return { ok: false, status: 403, reason: `Content-Type must be ${contentType}, as signed` };
  }
  if (request.contentLength !== String(size)) return { ok: false, status: 403, reason: `Content-Length must be ${size}, as signed` };
  return { ok: true, binding };
}
